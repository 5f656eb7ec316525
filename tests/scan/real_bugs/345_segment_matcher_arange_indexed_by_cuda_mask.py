# source: https://github.com/ykdai/BasicPBC/issues/4
# also: https://github.com/ykdai/BasicPBC/commit/905a930821a5b1778e0d92d3df911386f33fc177
# kind: tensor_no_device_in_forward
# bug: the segment-matching network's forward computed its area accuracy by indexing `torch.arange(0, n)` (created on the CPU) with a boolean mask of correct matches that lived on the GPU, failing with "indices should be either on cpu or on the same device"; the maintainers rewrote it to build the range with `device=is_correct.device`.
# split: test16
import torch
import torch.nn as nn


class SegmentMatcher(nn.Module):
    def __init__(self, dim=128):
        super().__init__()
        self.encode = nn.Sequential(nn.Linear(64, dim), nn.ReLU(), nn.Linear(dim, dim))
        self.bin_score = nn.Parameter(torch.tensor(1.0))

    def forward(self, data, all_matches=None):
        d0 = self.encode(data["desc0"])
        d1 = self.encode(data["desc1"])
        scores = torch.einsum("bnd,bmd->bnm", d0, d1) / d0.shape[-1] ** 0.5
        dustbin = self.bin_score.expand(scores.shape[0], scores.shape[1], 1)
        scores = torch.cat([scores, dustbin], dim=-1).log_softmax(-1)
        max0 = scores[:, :, :-1].max(2)
        indices0 = torch.where(max0.values.exp() > 0.2, max0.indices, torch.full_like(max0.indices, -1))
        if all_matches is None:
            return {"matches0": indices0}
        target = all_matches.clamp(min=0)
        loss = -scores[:, :, :-1].gather(2, target.unsqueeze(-1)).mean()
        is_correct = all_matches[0] == indices0[0]
        accuracy = is_correct.float().mean().item()
        correct_ids = torch.arange(0, all_matches[0].shape[0])[is_correct]  # bug: tensor_no_device_in_forward
        area = torch.tensor([(data["segment"] == i + 1).sum() for i in correct_ids]).sum()
        return {"loss": loss, "accuracy": accuracy, "area_accuracy": (area / data["numpixels"].sum()).item()}


def train_step(model, batch, optimizer, device):
    batch = {k: v.to(device) for k, v in batch.items()}
    out = model(batch, all_matches=batch["all_matches"])
    optimizer.zero_grad()
    out["loss"].backward()
    optimizer.step()
    return out["accuracy"], out["area_accuracy"]


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = SegmentMatcher().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-4)
