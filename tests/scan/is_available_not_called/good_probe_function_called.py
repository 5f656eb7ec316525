# The probe called; a flag of the same kind of name that is a value, not a function.
import torch


def gpu_usable() -> bool:
    try:
        torch.zeros(1).cuda()
        return True
    except Exception:
        return False


def pick_device():
    if gpu_usable():
        return torch.device("cuda")
    return torch.device("cpu")


def pick_later(cuda_available):
    # A parameter, not the module's function.
    return "cuda" if cuda_available else "cpu"


def has_accelerator():
    return torch.cuda.is_available()


has_accelerator = has_accelerator()
if has_accelerator:
    print("using the GPU")
