# source: https://github.com/HLR/DomiKnowS/pull/409
# also: https://github.com/HLR/DomiKnowS/commit/10772d02b0b57e4ef0fb5f290612f385c79491a3
# kind: cpu_accumulator
# bug: the logical-constraint solver collected one loss entry per constraint into a tensor made with torch.zeros(len(entries)) and no device, although the entries came from the model's CUDA outputs and the solver knew its current device; the fix builds the accumulator with device=self.current_device.
# split: test7
import torch


class ConstraintLossSolver:
    def __init__(self, device):
        self.current_device = torch.device(device)

    def entry_losses(self, probs, constraints):
        out = []
        for left, right in constraints:
            # implication left -> right, as a differentiable penalty
            out.append([torch.relu(probs[left] - probs[right]).mean()])
        return out

    def summarize(self, probs, constraints):
        losses = {}
        entries = self.entry_losses(probs, constraints)
        per_scalar = entries and torch.is_tensor(entries[0][0]) and entries[0][0].dim() == 0
        if per_scalar:
            total = torch.zeros(len(entries))  # bug: cpu_accumulator
            for i, group in enumerate(entries):
                total[i] = float("nan")
                for value in group:
                    if value is None:
                        continue
                    if torch.isnan(total[i]):
                        total[i] = value
                    else:
                        total[i] += value.item()
            losses["tensor"] = total
            losses["satisfaction"] = 1 - total
            losses["loss"] = torch.nansum(total).item()
        return losses


if __name__ == "__main__":
    solver = ConstraintLossSolver("cuda")
    probs = torch.rand(4, 16, device="cuda")
    report = solver.summarize(probs, [(0, 1), (2, 3)])
    weights = torch.ones(2, device="cuda")
    print((report["satisfaction"] * weights).sum())
