# source: https://github.com/rwightman/efficientdet-pytorch/issues/105
# kind: tensor_no_device_in_forward
# bug: The anchor matcher's no-ground-truth branch returned torch.ones(...) without a device, so on GPU training it produced a CPU match vector next to CUDA tensors; the maintainer fixed it by creating the tensor on the similarity matrix's device.
# split: dev
import torch


class ArgMaxMatcher:
    def __init__(self, pos_thresh=0.5, neg_thresh=0.4):
        self.pos_thresh = pos_thresh
        self.neg_thresh = neg_thresh

    def match(self, similarity):
        if similarity.shape[0] == 0:
            return -1 * torch.ones(similarity.shape[1], dtype=torch.long)  # bug: tensor_no_device_in_forward
        best_val, best_idx = similarity.max(dim=0)
        below = best_val < self.neg_thresh
        between = (best_val >= self.neg_thresh) & (best_val < self.pos_thresh)
        best_idx = torch.where(below, torch.full_like(best_idx, -1), best_idx)
        best_idx = torch.where(between, torch.full_like(best_idx, -2), best_idx)
        return best_idx


if __name__ == "__main__":
    m = ArgMaxMatcher()
    sim = torch.zeros(0, 100, device="cuda")
    codes = m.match(sim)
    print(codes.device)
