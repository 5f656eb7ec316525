# The loading options are a dict that gets device_map before from_pretrained(**options): the model
# is on the GPU, and the processor's output, made on the CPU, reaches generate() unmoved.
import torch
from transformers import AutoProcessor, LlavaForConditionalGeneration


class Captioner:
    def __init__(self, checkpoint, options=None):
        options = dict(options or {})
        options.setdefault("torch_dtype", torch.float16)
        options["device_map"] = "cuda"
        self.model = LlavaForConditionalGeneration.from_pretrained(checkpoint, **options)
        self.processor = AutoProcessor.from_pretrained(checkpoint)

    def caption(self, image):
        inputs = self.processor(text="USER: <image> Describe it. ASSISTANT:", images=image, return_tensors="pt")
        ids = self.model.generate(**inputs, max_new_tokens=40)  # expect: code.inputs_not_moved
        return self.processor.batch_decode(ids, skip_special_tokens=True)[0]
