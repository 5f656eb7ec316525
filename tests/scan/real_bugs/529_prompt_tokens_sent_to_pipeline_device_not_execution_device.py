# source: https://github.com/huggingface/diffusers/pull/12309
# kind: wrong_device_choice
# bug: the ControlNet image pipeline's prompt encoder resolved device = device or self._execution_device but then moved the tokenized prompt with .to(self.device), the device of the pipeline's first registered module; with model CPU offload enabled that is the CPU while the text encoder is executed on the GPU, so the input ids and mask landed on the wrong device; the fix moves the tokens to the resolved execution device.
# split: test25
from typing import List, Optional, Union

import torch
import torch.nn as nn


class OffloadPipeline:
    """Minimal stand-in for a diffusion pipeline with model CPU offload."""

    def __init__(self, text_encoder: nn.Module, tokenizer, offload_device="cuda"):
        self.text_encoder = text_encoder
        self.tokenizer = tokenizer
        self._offload_target = torch.device(offload_device)
        self.template = "<|system|>describe the image<|user|>{}<|end|>"
        self.drop_idx = 4
        self.max_len = 256

    @property
    def device(self) -> torch.device:
        # where the weights currently sit (CPU while offloaded)
        return next(self.text_encoder.parameters()).device

    @property
    def _execution_device(self) -> torch.device:
        # where the offload hooks run the modules
        return self._offload_target

    def _get_prompt_embeds(self, prompt: Union[str, List[str]], device: Optional[torch.device] = None,
                           dtype: Optional[torch.dtype] = None):
        device = device or self._execution_device
        dtype = dtype or torch.float16
        prompt = [prompt] if isinstance(prompt, str) else prompt
        txt = [self.template.format(p) for p in prompt]
        tokens = self.tokenizer(txt, max_length=self.max_len + self.drop_idx, padding=True,
                                truncation=True, return_tensors="pt").to(self.device)  # bug: wrong_device_choice
        hidden = self.text_encoder(input_ids=tokens["input_ids"], attention_mask=tokens["attention_mask"])
        hidden = hidden[:, self.drop_idx:]
        mask = tokens["attention_mask"][:, self.drop_idx:]
        return hidden.to(dtype=dtype, device=device), mask

    def encode_prompt(self, prompt, device=None, num_images_per_prompt=1):
        device = device or self._execution_device
        embeds, mask = self._get_prompt_embeds(prompt, device)
        b, seq, dim = embeds.shape
        embeds = embeds.repeat(1, num_images_per_prompt, 1).view(b * num_images_per_prompt, seq, dim)
        mask = mask.repeat(1, num_images_per_prompt).view(b * num_images_per_prompt, seq)
        return embeds, mask
