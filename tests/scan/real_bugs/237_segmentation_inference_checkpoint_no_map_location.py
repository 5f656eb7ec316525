# source: https://github.com/mlcommons/GaNDLF/issues/249
# also: https://github.com/mlcommons/GaNDLF/commit/766291ba91e72f4df8fd470d64a265d2057bf4c2
# kind: loaded_weights_not_moved
# bug: the inference loop took a device argument (e.g. `-d cpu`) and moved the model there only after loading the weights, but loaded the best checkpoint with `torch.load(file)` and no map_location, so a checkpoint saved from a GPU run was deserialized onto CUDA and inference on a CPU-only machine failed inside torch.load ("Attempting to deserialize object on a CUDA device ...") before the model could be sent to the CPU; the fix passes map_location=torch.device(device).
# split: test10
import os

import torch
from torch.utils.data import DataLoader

from segkit.data import ImagesFromDataFrame
from segkit.models import global_models_dict
from segkit.forward import validate_network


def send_model_to_device(model, device):
    if device == "cuda" and torch.cuda.is_available():
        return model.cuda(), "cuda"
    return model.cpu(), "cpu"


def inference_loop(inference_df, device, parameters, output_dir):
    model = global_models_dict[parameters["model"]["architecture"]](parameters=parameters)
    loader = DataLoader(ImagesFromDataFrame(inference_df, parameters, train=False), batch_size=1)

    ckpt_path = output_dir
    if os.path.isdir(output_dir):
        ckpt_path = os.path.join(output_dir, parameters["model"]["architecture"] + "_best.pth.tar")
        if not os.path.isfile(ckpt_path):
            raise ValueError("The specified model was not found:", ckpt_path)
    main_dict = torch.load(ckpt_path)  # bug: loaded_weights_not_moved
    model.load_state_dict(main_dict["model_state_dict"])

    model, parameters["device"] = send_model_to_device(model, device)
    print("Using device:", parameters["device"], flush=True)
    return validate_network(model, loader, None, parameters, mode="inference")
