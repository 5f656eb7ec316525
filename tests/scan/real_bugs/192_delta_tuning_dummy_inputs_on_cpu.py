# source: https://github.com/thunlp/OpenDelta/issues/21
# also: https://github.com/thunlp/OpenDelta/commit/f56dd68bb68aa0c6a89a6087695c7d059a552d73
# kind: inputs_not_moved
# bug: to discover the shapes of the layers it modifies, the delta-tuning wrapper ran the backbone once on the model's `dummy_inputs`; those come back as CPU tensors, so with the backbone already on CUDA the probing forward pass failed (only the fallback branch that built its own pseudo input called .to(device)); the fix moves the dummy inputs to the backbone's device first.
# split: test7
from inspect import signature

import torch
import torch.nn as nn


def module_device(module: nn.Module) -> torch.device:
    return next(module.parameters()).device


class AdapterWrapper(nn.Module):
    def __init__(self, backbone: nn.Module, bottleneck: int = 32):
        super().__init__()
        self.backbone = backbone
        self.bottleneck = bottleneck
        self.hidden_sizes = {}
        self._hooks = []

    def _record_shape(self, name):
        def hook(mod, inputs, output):
            out = output[0] if isinstance(output, tuple) else output
            self.hidden_sizes[name] = out.shape[-1]
        return hook

    def _pseudo_forward(self):
        module = self.backbone
        try:
            dummy = module.dummy_inputs
            module(**dummy)  # bug: inputs_not_moved
        except AttributeError:
            device = module_device(module)
            pseudo = torch.tensor([[0, 0]]).to(device)
            if "decoder_input_ids" in signature(module.forward).parameters:
                module(pseudo, decoder_input_ids=pseudo)
            else:
                module(pseudo)

    def attach(self, layer_names):
        for name, sub in self.backbone.named_modules():
            if name in layer_names:
                self._hooks.append(sub.register_forward_hook(self._record_shape(name)))
        with torch.no_grad():
            self._pseudo_forward()
        for h in self._hooks:
            h.remove()
        return self.hidden_sizes


if __name__ == "__main__":
    from transformers import AutoModelForSeq2SeqLM

    t5 = AutoModelForSeq2SeqLM.from_pretrained("t5-small").cuda()
    print(AdapterWrapper(t5).attach(["encoder.block.0.layer.1"]))
