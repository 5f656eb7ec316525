# source: https://github.com/asahi417/lmppl/pull/12
# also: https://github.com/asahi417/lmppl/commit/c05887e9abc505e901102f2d016a69b995e9514c
# kind: inputs_not_moved
# bug: the perplexity scorer moved the tokenizer output to the model's device only inside the model call, then took the labels from the original CPU input_ids and fed them to the loss with CUDA logits (nll_loss device mismatch); the fix moved the whole encoding to self.device once, before both the model call and the label slice (a later commit also added .to(self.device) on the labels).
# split: test2
import math

import torch
import transformers


class CausalScorer:
    def __init__(self, name: str = "gpt2"):
        self.tok = transformers.AutoTokenizer.from_pretrained(name)
        self.tok.pad_token = self.tok.eos_token
        self.lm = transformers.AutoModelForCausalLM.from_pretrained(name)
        if torch.cuda.device_count() > 0:
            self.lm.to("cuda")
        self.device = self.lm.device
        self.lm.eval()
        self.xent = torch.nn.CrossEntropyLoss(reduction="none")

    @torch.no_grad()
    def perplexity(self, texts, batch_size=8):
        result = []
        for i in range(0, len(texts), batch_size):
            enc = self.tok(texts[i:i + batch_size], padding=True, return_tensors="pt")
            logits = self.lm(**{k: v.to(self.device) for k, v in enc.items()}).logits
            target = enc["input_ids"].clone()
            target[enc["attention_mask"] == 0] = self.xent.ignore_index
            logits, target = logits[:, :-1].contiguous(), target[:, 1:].contiguous()
            nll = self.xent(logits.view(-1, logits.size(-1)), target.view(-1))  # bug: inputs_not_moved
            nll = nll.view(target.size(0), -1).sum(-1) / (target != self.xent.ignore_index).sum(-1)
            result += [math.exp(v) for v in nll.cpu().tolist()]
        return result


if __name__ == "__main__":
    print(CausalScorer().perplexity(["I like tea.", "Tea likes me very much."]))
