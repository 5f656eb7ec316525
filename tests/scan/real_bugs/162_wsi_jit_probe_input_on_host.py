# source: https://github.com/SBU-BMI/wsinfer/pull/80
# also: https://github.com/SBU-BMI/wsinfer/commit/0277ddff4706811db7681895910dd1c488571c8f
# kind: inputs_not_moved
# bug: before scripting a patch classifier that was already on the GPU, the whole-slide inference tool ran a probe torch.ones(1, 3, 224, 224) built on the CPU; the device error was swallowed, so the model was silently never compiled. The fix reads the model's device from its parameters and builds the probe there.
# split: test5
import warnings

import torch


def jit_compile(model):
    fallback = model
    msg = "could not JIT compile the model; using the plain model instead"
    probe = torch.ones(1, 3, 224, 224)
    try:
        scripted = torch.jit.script(model)
        with torch.no_grad():
            scripted(probe)  # bug: inputs_not_moved
    except Exception:
        warnings.warn(msg)
        return fallback
    try:
        frozen = torch.jit.optimize_for_inference(torch.jit.freeze(scripted))
        with torch.no_grad():
            frozen(probe)
        return frozen
    except Exception:
        return scripted


def run_inference(model, loader, device):
    model = model.to(device).eval()
    model = jit_compile(model)
    scores = []
    with torch.no_grad():
        for patches, coords in loader:
            logits = model(patches.to(device))
            scores.append(torch.softmax(logits, dim=1).cpu())
    return torch.cat(scores)
