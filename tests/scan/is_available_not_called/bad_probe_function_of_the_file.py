# A device picker that defines its own probe and then tests the function instead of its answer.
import torch


def gpu_usable() -> bool:
    try:
        torch.zeros(1).cuda()
        return True
    except Exception:
        return False


def pick_device():
    if gpu_usable:  # expect: code.is_available_not_called
        return torch.device("cuda")
    return torch.device("cpu")
