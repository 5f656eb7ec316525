# source: https://github.com/vaibkumr/prompt-optimizer/pull/4
# kind: numpy_of_device_tensor
# bug: the entropy-based prompt optimizer ran a causal LM on the GPU and then called .detach().numpy() on the per-token entropy tensor, which raises "can't convert cuda:0 device type tensor to numpy" on GPU machines; the fix moves the tensor to the CPU first (.detach().cpu().numpy()).
# split: test23
import numpy as np
import torch
from transformers import AutoModelForCausalLM, AutoTokenizer


class BaseOptimizer:
    def __init__(self, verbose=False):
        self.verbose = verbose

    def __call__(self, prompt):
        return self.run(prompt)

    def run(self, prompt):
        raise NotImplementedError


class EntropyPruner(BaseOptimizer):
    def __init__(self, model_name="gpt2", percentile=10, verbose=False):
        super().__init__(verbose=verbose)
        self.device = "cuda" if torch.cuda.is_available() else "cpu"
        self.tokenizer = AutoTokenizer.from_pretrained(model_name)
        self.model = AutoModelForCausalLM.from_pretrained(model_name)
        self.model.to(self.device)
        self.model.eval()
        self.percentile = percentile

    def token_entropies(self, text):
        enc = self.tokenizer(text, return_tensors="pt").to(self.device)
        with torch.no_grad():
            logits = self.model(**enc).logits
        probs = torch.softmax(logits, dim=-1)
        entropy = -(probs * torch.log(probs + 1e-12)).sum(dim=-1)
        ids = enc["input_ids"][0].tolist()
        tokens = self.tokenizer.convert_ids_to_tokens(ids)
        return tokens, entropy[0].detach().numpy()  # bug: numpy_of_device_tensor

    def run(self, prompt):
        tokens, ent = self.token_entropies(prompt)
        cutoff = np.percentile(ent, self.percentile)
        kept = [t for t, e in zip(tokens, ent) if e >= cutoff]
        if self.verbose:
            print(f"kept {len(kept)}/{len(tokens)} tokens (cutoff={cutoff:.3f})")
        return self.tokenizer.convert_tokens_to_string(kept)


if __name__ == "__main__":
    opt = EntropyPruner(percentile=20, verbose=True)
    print(opt("Please kindly summarize the following very long and rather verbose paragraph for me."))
