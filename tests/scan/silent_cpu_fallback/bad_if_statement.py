import torch


def pick_device():
    if torch.cuda.is_available():  # expect: code.silent_cpu_fallback
        dev = "cuda"
    else:
        dev = "cpu"
    return dev


class Runner:
    def __init__(self):
        self.device = "cuda:0" if torch.cuda.is_available() else "cpu"  # expect: code.silent_cpu_fallback
