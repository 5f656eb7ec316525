# A 4-bit model is placed on the GPU by bitsandbytes; the prompt's ids stay on the CPU.
import torch
from transformers import AutoModelForCausalLM, AutoTokenizer, BitsAndBytesConfig


class Chat:
    def __init__(self, path):
        self.tokenizer = AutoTokenizer.from_pretrained(path)
        quant = BitsAndBytesConfig(load_in_4bit=True, bnb_4bit_compute_dtype=torch.float16)
        self.model = AutoModelForCausalLM.from_pretrained(path, quantization_config=quant)

    def reply(self, prompt):
        ids = self.tokenizer(prompt, return_tensors="pt").input_ids
        out = self.model.generate(ids, max_new_tokens=64)  # expect: code.inputs_not_moved
        return self.tokenizer.decode(out[0], skip_special_tokens=True)
