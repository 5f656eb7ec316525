# source: https://github.com/kserve/kserve/pull/3657
# kind: inputs_not_moved
# bug: the Hugging Face model server loaded the generative model onto the GPU, but the tensors returned by the tokenizer stayed on the CPU and were passed to generate(), which failed; the fix moved the encoded inputs to the model's device.
# split: test2
import torch
from transformers import AutoModelForCausalLM, AutoTokenizer


class TextGenServer:
    def __init__(self, model_dir, device="cuda"):
        self.device = torch.device(device)
        self.tok = AutoTokenizer.from_pretrained(model_dir)
        self.lm = AutoModelForCausalLM.from_pretrained(model_dir).to(self.device)
        self.lm.eval()

    def predict(self, prompts, max_new_tokens=32):
        enc = self.tok(prompts, return_tensors="pt", padding=True)
        with torch.no_grad():
            out = self.lm.generate(**enc, max_new_tokens=max_new_tokens)  # bug: inputs_not_moved
        return self.tok.batch_decode(out, skip_special_tokens=True)
