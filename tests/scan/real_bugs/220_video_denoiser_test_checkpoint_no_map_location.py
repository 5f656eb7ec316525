# source: https://github.com/m-tassano/fastdvdnet/issues/23
# kind: loaded_weights_not_moved
# bug: the test script let the user run without a GPU (`--no_gpu`), built the model on the CPU in that case, but loaded the released (CUDA-saved) checkpoint with `torch.load(args['model_file'])` and no map_location, so the weights were deserialized onto a CUDA device that did not exist; the maintainer changed it to `torch.load(args['model_file'], map_location=device)`.
# split: test9
import argparse
import os

import torch
import torch.nn as nn

from denoiser.models import FastDVDnet
from denoiser.utils import open_sequence, remove_dataparallel_wrapper, save_out_seq
from denoiser.temporal import denoise_seq

NUM_IN_FR_EXT = 5


def test_denoiser(**args):
    if args["cuda"]:
        device = torch.device("cuda")
    else:
        device = torch.device("cpu")

    model_temp = FastDVDnet(num_input_frames=NUM_IN_FR_EXT)
    if args["cuda"]:
        model = nn.DataParallel(model_temp, device_ids=[0]).cuda()
    else:
        model = model_temp

    state_temp_dict = torch.load(args["model_file"])  # bug: loaded_weights_not_moved
    if not args["cuda"]:
        state_temp_dict = remove_dataparallel_wrapper(state_temp_dict)
    model.load_state_dict(state_temp_dict)
    model.eval()

    with torch.no_grad():
        seq, _, _ = open_sequence(args["test_path"], False, expand_if_needed=False, max_num_fr=args["max_num_fr_per_seq"])
        seq = torch.from_numpy(seq).to(device)
        noise = torch.empty_like(seq).normal_(mean=0, std=args["noise_sigma"]).to(device)
        seqn = seq + noise
        noisestd = torch.FloatTensor([args["noise_sigma"]]).to(device)
        denframes = denoise_seq(seq=seqn, noise_std=noisestd, temp_psz=NUM_IN_FR_EXT, model_temporal=model)
    save_out_seq(seqn, denframes, args["save_path"], int(args["noise_sigma"] * 255), "fastdvdnet", False)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="Denoise a sequence with FastDVDnet")
    parser.add_argument("--model_file", type=str, default="./model.pth")
    parser.add_argument("--test_path", type=str, default="./data/rgb/Kodak24")
    parser.add_argument("--max_num_fr_per_seq", type=int, default=25)
    parser.add_argument("--noise_sigma", type=float, default=25)
    parser.add_argument("--no_gpu", action="store_true")
    parser.add_argument("--save_path", type=str, default="./results")
    argspar = parser.parse_args()
    argspar.noise_sigma /= 255.0
    argspar.cuda = not argspar.no_gpu and torch.cuda.is_available()
    os.makedirs(argspar.save_path, exist_ok=True)
    test_denoiser(**vars(argspar))
