# source: https://github.com/spqb/adabmDCApy/issues/24
# kind: wrong_device_choice
# bug: the package's device helper only honoured a requested device when it contained "cuda" and CUDA was available, and sent every other request (including "mps") to the CPU, so Mac GPU users silently trained on the CPU; the fix returns the requested MPS device before the CUDA check.
# split: test22
import argparse
from typing import Dict

import torch


def get_device(device: str, message: bool = True) -> torch.device:
    if "cuda" in device and torch.cuda.is_available():
        if message:
            print(f"Running on {torch.cuda.get_device_name(device)}")
        return torch.device(device)
    else:
        if message:
            print("Running on CPU")
        return torch.device("cpu")  # bug: wrong_device_choice


def get_dtype(name: str) -> torch.dtype:
    return {"float32": torch.float32, "float64": torch.float64}[name]


def one_hot(seqs: torch.Tensor, q: int) -> torch.Tensor:
    return torch.nn.functional.one_hot(seqs.long(), num_classes=q).to(torch.float32)


def init_parameters(fi: torch.Tensor) -> Dict[str, torch.Tensor]:
    L, q = fi.shape
    return {
        "bias": torch.log(fi),
        "coupling_matrix": torch.zeros((L, q, L, q), device=fi.device, dtype=fi.dtype),
    }


def single_site_freqs(data: torch.Tensor, pseudo_count: float = 1e-5) -> torch.Tensor:
    fi = data.mean(dim=0)
    q = fi.shape[1]
    return (1 - pseudo_count) * fi + pseudo_count / q


def gibbs_sweep(chains: torch.Tensor, params: Dict[str, torch.Tensor], beta: float = 1.0) -> torch.Tensor:
    n, L, q = chains.shape
    for i in torch.randperm(L):
        coupling = params["coupling_matrix"][i]
        field = params["bias"][i] + torch.einsum("njb,ajb->na", chains, coupling)
        logits = beta * field
        new = torch.multinomial(torch.softmax(logits, dim=-1), 1).squeeze(-1)
        chains[:, i] = torch.nn.functional.one_hot(new, q).to(chains.dtype)
    return chains


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--device", default="cuda")
    parser.add_argument("--dtype", default="float32")
    parser.add_argument("--nchains", type=int, default=1000)
    args = parser.parse_args()

    device = get_device(args.device)
    dtype = get_dtype(args.dtype)
    seqs = torch.randint(0, 21, (5000, 60))
    data = one_hot(seqs, 21).to(device=device, dtype=dtype)
    fi = single_site_freqs(data)
    params = init_parameters(fi)
    chains = one_hot(torch.randint(0, 21, (args.nchains, 60)), 21).to(device=device, dtype=dtype)
    for _ in range(10):
        chains = gibbs_sweep(chains, params)
    print(chains.mean(dim=0).shape)


if __name__ == "__main__":
    main()
