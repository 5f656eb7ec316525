# source: https://github.com/deepmodeling/DeePTB/pull/178
# also: https://github.com/deepmodeling/DeePTB/commit/feb82c2b115450056f848e67725452a33bc83fa2
# kind: loaded_weights_not_moved
# bug: the tight-binding network's `from_reference` constructors rebuilt a model for the requested `device` from a checkpoint, but read the checkpoint with a bare `torch.load(checkpoint)`, which restores the tensors (the state dict and the stored options) onto the CUDA device they were saved from; running a GPU-trained model with `device="cpu"` (or on a machine without CUDA) failed; the fix passes `map_location=device`.
# split: test12
import torch
import torch.nn as nn


class HoppingNet(nn.Module):
    def __init__(self, n_orbitals=9, hidden=64, dtype=torch.float32, device="cpu"):
        super().__init__()
        self.embed = nn.Linear(4, hidden, dtype=dtype, device=device)
        self.hopping = nn.Sequential(
            nn.SiLU(), nn.Linear(hidden, n_orbitals * n_orbitals, dtype=dtype, device=device)
        )
        self.register_buffer("onsite", torch.zeros(n_orbitals, dtype=dtype, device=device))
        self.n_orbitals = n_orbitals

    def forward(self, edge_vectors):
        r = edge_vectors.norm(dim=-1, keepdim=True)
        feats = torch.cat([edge_vectors / r, r], dim=-1)
        return self.hopping(self.embed(feats)).view(-1, self.n_orbitals, self.n_orbitals)

    @classmethod
    def from_reference(cls, checkpoint, dtype=torch.float32, device="cpu", **kwargs):
        ckpt = torch.load(checkpoint)  # bug: loaded_weights_not_moved
        options = dict(ckpt["config"]["model_options"])
        options.update(kwargs)
        model = cls(dtype=dtype, device=device, **options)
        model.load_state_dict(ckpt["model_state_dict"])
        return model


def band_hamiltonians(checkpoint, edge_vectors, device="cpu"):
    model = HoppingNet.from_reference(checkpoint, device=device)
    model.eval()
    with torch.no_grad():
        return model(edge_vectors.to(device))
