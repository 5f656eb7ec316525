# source: https://github.com/Xilinx/brevitas/pull/949
# also: https://github.com/Xilinx/brevitas/commit/8c71e0800c183e6422c51497da6911108890f212
# kind: other
# bug: the LLM quantization example built its perplexity validation batches with `input_ids[...].cuda()` and moved the shifted labels with `.cuda()` as well, i.e. to the default GPU rather than to the model's device, so a model placed on `cuda:1` received inputs on `cuda:0` and evaluation failed with a device mismatch; the fix passes the model's device (`next(model.parameters()).device`) to the dataloader builder and to the eval loop.
# split: test11
import argparse

import torch
from torch import nn


def make_validation_batches(input_ids, seqlen):
    n = input_ids.numel() // seqlen
    batches = []
    for i in range(n):
        chunk = input_ids[:, i * seqlen:(i + 1) * seqlen].cuda()  # bug: other
        batches.append({"input_ids": chunk, "attention_mask": torch.ones_like(chunk)})
    return batches


@torch.no_grad()
def perplexity(model, batches, seqlen):
    dev = next(model.parameters()).device
    nlls = []
    for inputs in batches:
        logits = model(**inputs)["logits"]
        shift_logits = logits[:, :-1, :].contiguous()
        shift_labels = inputs["input_ids"][:, 1:].to(dev)
        loss = nn.functional.cross_entropy(shift_logits.view(-1, shift_logits.size(-1)), shift_labels.view(-1))
        nlls.append(loss.float() * seqlen)
    return torch.exp(torch.stack(nlls).sum() / (len(batches) * seqlen))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", default="facebook/opt-125m")
    parser.add_argument("--device", default="cuda:1" if torch.cuda.device_count() > 1 else "cuda")
    parser.add_argument("--seqlen", type=int, default=2048)
    args = parser.parse_args()

    from transformers import AutoModelForCausalLM, AutoTokenizer

    model = AutoModelForCausalLM.from_pretrained(args.model, torch_dtype=torch.float16).to(args.device)
    model.eval()
    tokenizer = AutoTokenizer.from_pretrained(args.model)
    text = "\n\n".join(["the quick brown fox jumps over the lazy dog"] * 2000)
    ids = tokenizer(text, return_tensors="pt").input_ids
    batches = make_validation_batches(ids, args.seqlen)
    print("perplexity", perplexity(model, batches, args.seqlen).item())


if __name__ == "__main__":
    main()
