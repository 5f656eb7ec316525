# source: https://github.com/meta-pytorch/captum/issues/719
# also: https://github.com/meta-pytorch/captum/pull/725
# kind: loaded_weights_not_moved
# bug: the concept-vector classifier trained an sklearn linear model on the activations and copied its fitted coef_/intercept_ into a torch linear layer via CPU tensors, then evaluated that layer on the held-out activations, which live on CUDA when the explained model is on the GPU; the fix moves the imported weights to the model/input device.
# split: test19
import torch
import torch.nn as nn
from sklearn.linear_model import SGDClassifier


class TorchLinearFromSklearn(nn.Module):
    def __init__(self):
        super().__init__()
        self.linear = None
        self.classes_ = None

    def construct(self, weight, bias, classes):
        out_f, in_f = weight.shape
        self.linear = nn.Linear(in_f, out_f)
        self.linear.weight.data = weight
        self.linear.bias.data = bias
        self.classes_ = classes

    def forward(self, x):
        return self.linear(x)


def fit_with_sklearn(lm, x, y):
    clf = SGDClassifier(alpha=0.01, max_iter=1000, tol=1e-3)
    clf.fit(x.cpu().numpy(), y.cpu().numpy())
    n_out = clf.coef_.shape[0]
    weight = torch.as_tensor(clf.coef_, dtype=torch.float32).view(n_out, -1)  # bug: loaded_weights_not_moved
    bias = torch.as_tensor(clf.intercept_, dtype=torch.float32)
    lm.construct(weight, bias, torch.as_tensor(clf.classes_))


class ConceptClassifier:
    def __init__(self):
        self.lm = TorchLinearFromSklearn()

    def train_and_eval(self, activations, labels, test_ratio=0.33):
        n_test = int(len(labels) * test_ratio)
        perm = torch.randperm(len(labels), device=labels.device)
        test_idx, train_idx = perm[:n_test], perm[n_test:]
        fit_with_sklearn(self.lm, activations[train_idx], labels[train_idx])
        logits = self.lm(activations[test_idx])
        pred = logits.argmax(dim=1)
        return (pred == labels[test_idx]).float().mean()


if __name__ == "__main__":
    acts = torch.randn(300, 64, device="cuda")
    labels = torch.randint(0, 3, (300,), device="cuda")
    print(ConceptClassifier().train_and_eval(acts, labels))
