# The same values brought to the host first.
import numpy as np
import torch
import torch.nn.functional as F


class Scorer:
    def __init__(self, model, steps, device):
        self.device = device
        self.model = model.to(device)
        self.trace = np.zeros(steps)

    def token_entropy(self, ids):
        ids = ids.to(self.device)
        logits = self.model(ids)
        probs = torch.softmax(logits, dim=-1)
        entropy = -(probs * torch.log(probs + 1e-12)).sum(dim=-1)
        return entropy[0].detach().cpu().numpy()

    def record(self, step, ids):
        ids = ids.to(self.device)
        log_p = F.log_softmax(self.model(ids), dim=-1)
        self.trace[step] = log_p.max(dim=-1).values.mean().item()
