import os

import torch

use_cuda = torch.cuda.is_available()
os.environ["CUDA_VISIBLE_DEVICES"] = "2"  # expect: code.visible_devices_after_init


def hide_all():
    os.environ["CUDA_VISIBLE_DEVICES"] = ""  # expect: code.visible_devices_after_init


os.putenv("CUDA_VISIBLE_DEVICES", "-1")  # expect: code.visible_devices_after_init
