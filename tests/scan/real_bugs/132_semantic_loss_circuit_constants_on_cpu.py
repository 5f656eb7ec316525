# source: https://github.com/lucadiliello/semantic-loss-pytorch/issues/2
# also: https://github.com/lucadiliello/semantic-loss-pytorch/commit/cfd67ebb308eaa8519faaae40f4adecd92690d96
# kind: tensor_no_device_in_forward
# bug: the circuit evaluator behind the semantic loss made its true/false leaf constants with torch.ones(1) and torch.zeros(1) on the CPU and combined them with CUDA literal probabilities, so the loss did not run on CUDA; the fix creates them on the probabilities' device.
# split: test4
import torch
import torch.nn as nn


def evaluate_circuit(nodes, lit_probs):
    """nodes: topologically ordered (kind, payload) pairs; lit_probs: {literal: (batch,) tensor}."""
    one = torch.ones(1)  # bug: tensor_no_device_in_forward
    zero = torch.zeros(1)
    values = []
    for kind, payload in nodes:
        if kind == "true":
            values.append(one)
        elif kind == "false":
            values.append(zero)
        elif kind == "lit":
            values.append(lit_probs[payload])
        elif kind == "and":
            v = values[payload[0]]
            for i in payload[1:]:
                v = v * values[i]
            values.append(v)
        else:  # "or"
            values.append(torch.stack([values[i].expand_as(values[payload[0]]) for i in payload]).sum(0))
    return values[-1]


class SemanticLoss(nn.Module):
    def __init__(self, nodes, n_vars):
        super().__init__()
        self.nodes = nodes
        self.n_vars = n_vars

    def forward(self, logits):
        p = torch.sigmoid(logits)
        lits = {}
        for v in range(self.n_vars):
            lits[v + 1] = p[:, v]
            lits[-(v + 1)] = 1 - p[:, v]
        wmc = evaluate_circuit(self.nodes, lits)
        return -torch.log(wmc.clamp_min(1e-12)).mean()
