# A scorer hands the language model a moved copy of the encoding, then takes its targets from the
# encoding itself, still on the CPU, and gives them to the loss with the model's logits.
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
        enc = self.tok(texts, padding=True, return_tensors="pt")
        logits = self.lm(**{k: v.to("cuda") for k, v in enc.items()}).logits
        target = enc["input_ids"].clone()
        logits, target = logits[:, :-1].contiguous(), target[:, 1:].contiguous()
        return self.xent(logits.view(-1, logits.size(-1)), target.view(-1))  # expect: code.inputs_not_moved

    @torch.no_grad()
    def mean_nll(self, texts):
        enc = self.tok(texts, padding=True, return_tensors="pt")
        out = self.lm(**{k: v.to("cuda") for k, v in enc.items()})
        labels = enc["input_ids"]
        return nn.functional.cross_entropy(out.logits[0, :-1], labels[0, 1:])  # expect: code.inputs_not_moved
