# source: https://github.com/jiawangbai/TA-LBF/issues/2
# kind: eval_batch_not_moved
# bug: after the weight-bit attack the script re-ran the CUDA model on the whole test set and scored post-attack accuracy by comparing the CPU `labels` with the CUDA predictions element by element, which raises a device mismatch on recent PyTorch; the clean-accuracy pass had moved predictions to the CPU and the attack loop used `labels_cuda`, and the maintainer confirmed the fix of comparing against `labels_cuda`.
# split: test17
import numpy as np
import torch
import torch.nn as nn


class LastLayerAttack(nn.Module):
    def __init__(self, feat_dim=64, num_classes=10):
        super().__init__()
        self.w_twos = nn.Parameter(torch.rand(num_classes, feat_dim))
        self.bias = nn.Parameter(torch.zeros(num_classes))

    def forward(self, feats):
        return feats @ self.w_twos.t() + self.bias


def attack(model, all_data, labels, labels_cuda, target_idx, target_class, aux_idx, iters=100, lr=0.01):
    for _ in range(iters):
        output = model(all_data[aux_idx])
        loss = nn.functional.cross_entropy(output, labels_cuda[aux_idx].long())
        target_out = model(all_data[target_idx:target_idx + 1])
        loss = loss + nn.functional.cross_entropy(target_out, torch.tensor([target_class], device=all_data.device))
        model.zero_grad()
        loss.backward()
        with torch.no_grad():
            model.w_twos -= lr * model.w_twos.grad
    with torch.no_grad():
        output = model(all_data)
    _, pred = output.topk(1, 1, True, True)
    pred = pred.squeeze(1)
    keep = [i for i in range(len(output)) if i != target_idx and i not in aux_idx]
    pa_acc = len([i for i in keep if labels[i] == pred[i]]) / len(keep)  # bug: eval_batch_not_moved
    return {"pa_acc": pa_acc, "suc": target_class == pred[target_idx].item()}


def main():
    np.random.seed(512)
    all_data = torch.randn(1000, 64).cuda()
    labels = torch.randint(0, 10, (1000,))
    labels_cuda = labels.cuda()
    model = LastLayerAttack().cuda()
    with torch.no_grad():
        _, pred = model(all_data).cpu().topk(1, 1, True, True)
    acc_ori = (labels == pred.squeeze(1)).float().mean().item()
    aux_idx = np.random.choice(range(1, 1000), 128, replace=False)
    res = attack(model, all_data, labels, labels_cuda, 0, 3, aux_idx)
    print(acc_ori, res)


if __name__ == "__main__":
    main()
