# source: https://github.com/AUTOMATIC1111/stable-diffusion-webui/pull/4623
# kind: wrong_device_choice
# bug: the device picker tested the MPS probe function object instead of calling it, so on any machine without CUDA the check was always truthy and the web UI selected "mps" unconditionally, even where MPS is not usable; the fix calls the probe so unusable MPS falls back to the CPU.
# split: test23
import contextlib
import sys

import torch

cpu = torch.device("cpu")


def has_mps() -> bool:
    if sys.platform != "darwin":
        return False
    if not getattr(torch, "has_mps", False):
        return False
    try:
        torch.zeros(1).to(torch.device("mps"))
        return True
    except Exception:
        return False


def extract_device_id(args, name):
    for i, arg in enumerate(args):
        if arg == name and i + 1 < len(args):
            return args[i + 1]
    return None


def get_cuda_device_string():
    device_id = extract_device_id(sys.argv, "--device-id")
    if device_id is not None:
        return f"cuda:{device_id}"
    return "cuda"


def get_optimal_device():
    if torch.cuda.is_available():
        return torch.device(get_cuda_device_string())
    if has_mps:  # bug: wrong_device_choice
        return torch.device("mps")
    return cpu


def torch_gc():
    if torch.cuda.is_available():
        with torch.cuda.device(get_cuda_device_string()):
            torch.cuda.empty_cache()
            torch.cuda.ipc_collect()


device = get_optimal_device()
device_interrogate = device
device_gfpgan = device
dtype = torch.float16


def autocast(disable=False):
    if disable or device.type != "cuda":
        return contextlib.nullcontext()
    return torch.autocast("cuda")


if __name__ == "__main__":
    unet = torch.nn.Conv2d(4, 4, 3, padding=1).to(device)
    latents = torch.randn(1, 4, 64, 64, device=device)
    with autocast():
        print(unet(latents).device)
