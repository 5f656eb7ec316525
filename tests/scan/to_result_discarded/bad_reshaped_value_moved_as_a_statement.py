# A value a parser hands back (its kind unknown here), reshaped with view() and then "moved" as a
# statement: only tensors have view(), and Tensor.to() returns a copy.
import torch


def transcribe(path, parser, model, device):
    spect = parser.parse_audio(path).contiguous()
    spect = spect.view(1, 1, spect.size(0), spect.size(1))
    spect.to(device)  # expect: code.to_result_discarded
    return model(spect)
