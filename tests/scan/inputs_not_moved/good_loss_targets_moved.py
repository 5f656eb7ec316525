# The same scorer moving the encoding once, so the targets are where the logits are; and a loss of
# two host tensors.
import torch
from torch import nn
from transformers import AutoModelForCausalLM, AutoTokenizer


class Scorer:
    def __init__(self, name="gpt2"):
        self.tok = AutoTokenizer.from_pretrained(name)
        self.lm = AutoModelForCausalLM.from_pretrained(name).to("cuda")
        self.xent = nn.CrossEntropyLoss(reduction="none")

    @torch.no_grad()
    def nll(self, texts):
        enc = self.tok(texts, padding=True, return_tensors="pt").to("cuda")
        logits = self.lm(**enc).logits
        target = enc["input_ids"].clone()
        logits, target = logits[:, :-1].contiguous(), target[:, 1:].contiguous()
        return self.xent(logits.view(-1, logits.size(-1)), target.view(-1))

    def host_only(self, texts):
        enc = self.tok(texts, padding=True, return_tensors="pt")
        scores = torch.zeros(enc["input_ids"].shape[0], 2)
        return nn.functional.cross_entropy(scores, enc["input_ids"][:, 0] % 2)
