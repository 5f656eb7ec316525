# source: https://github.com/benedekrozemberczki/pytorch_geometric_temporal/pull/180
# kind: attribute_not_buffer
# bug: the heterogeneous graph-convolutional LSTM kept its per-node-type gate weights and biases in plain Python dicts of nn.Parameter, so they were neither registered with the module nor moved by model.to(device) (and not returned by parameters()), giving CPU/GPU mismatches; the fix wraps them in nn.ParameterDict.
# split: test21
import torch
import torch.nn as nn
from torch.nn import Parameter


class TypedGraphConv(nn.Module):
    def __init__(self, node_types, in_channels_dict, out_channels):
        super().__init__()
        self.lins = nn.ModuleDict({t: nn.Linear(out_channels, out_channels) for t in node_types})

    def forward(self, h_dict, edge_index_dict):
        out = {}
        for (src, _, dst), edge_index in edge_index_dict.items():
            msg = torch.zeros_like(h_dict[dst])
            msg.index_add_(0, edge_index[1], h_dict[src][edge_index[0]])
            out[dst] = out.get(dst, 0) + self.lins[dst](msg)
        return out


class HeteroGraphLSTM(nn.Module):
    def __init__(self, in_channels_dict, out_channels, metadata):
        super().__init__()
        self.in_channels_dict = in_channels_dict
        self.out_channels = out_channels
        self.metadata = metadata
        node_types = metadata[0]
        for gate in ("i", "f", "c", "o"):
            setattr(self, f"conv_{gate}", TypedGraphConv(node_types, in_channels_dict, out_channels))
            setattr(self, f"W_{gate}", self._per_type(lambda c: (c, out_channels)))
            setattr(self, f"b_{gate}", self._per_type(lambda c: (1, out_channels)))
        self.reset_parameters()

    def _per_type(self, shape_fn):
        return {t: Parameter(torch.empty(*shape_fn(c))) for t, c in self.in_channels_dict.items()}  # bug: attribute_not_buffer

    def reset_parameters(self):
        for gate in ("i", "f", "c", "o"):
            for p in getattr(self, f"W_{gate}").values():
                nn.init.xavier_uniform_(p)
            for p in getattr(self, f"b_{gate}").values():
                nn.init.zeros_(p)

    def _gate(self, gate, x_dict, edge_index_dict, h_dict, act):
        W, b, conv = getattr(self, f"W_{gate}"), getattr(self, f"b_{gate}"), getattr(self, f"conv_{gate}")
        msg = conv(h_dict, edge_index_dict)
        return {t: act(X @ W[t] + msg.get(t, 0) + b[t]) for t, X in x_dict.items()}

    def forward(self, x_dict, edge_index_dict, h_dict=None, c_dict=None):
        if h_dict is None:
            h_dict = {t: torch.zeros(X.shape[0], self.out_channels, device=X.device) for t, X in x_dict.items()}
        if c_dict is None:
            c_dict = {t: torch.zeros(X.shape[0], self.out_channels, device=X.device) for t, X in x_dict.items()}
        i = self._gate("i", x_dict, edge_index_dict, h_dict, torch.sigmoid)
        f = self._gate("f", x_dict, edge_index_dict, h_dict, torch.sigmoid)
        t = self._gate("c", x_dict, edge_index_dict, h_dict, torch.tanh)
        c_dict = {k: f[k] * C + i[k] * t[k] for k, C in c_dict.items()}
        o = self._gate("o", x_dict, edge_index_dict, h_dict, torch.sigmoid)
        h_dict = {k: o[k] * torch.tanh(C) for k, C in c_dict.items()}
        return h_dict, c_dict


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    metadata = (["author", "paper"], [("author", "writes", "paper"), ("paper", "rev_writes", "author")])
    model = HeteroGraphLSTM({"author": 16, "paper": 32}, 8, metadata).to(device)
    x_dict = {"author": torch.randn(10, 16, device=device), "paper": torch.randn(20, 32, device=device)}
    edge_index_dict = {
        ("author", "writes", "paper"): torch.stack([torch.randint(0, 10, (40,)), torch.randint(0, 20, (40,))]).to(device),
        ("paper", "rev_writes", "author"): torch.stack([torch.randint(0, 20, (40,)), torch.randint(0, 10, (40,))]).to(device),
    }
    h, c = model(x_dict, edge_index_dict)
    print({k: v.shape for k, v in h.items()})
