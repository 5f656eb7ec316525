# source: https://github.com/huggingface/transformers/pull/2377
# kind: inputs_not_moved
# bug: the text-generation example moved the model to args.device but passed the encoded prompt from tokenizer.encode(..., return_tensors="pt") straight to generation on the CPU; the fix moved the encoded prompt to args.device.
# split: test2
import argparse

import torch
from transformers import GPT2LMHeadModel, GPT2Tokenizer


def main():
    cli = argparse.ArgumentParser()
    cli.add_argument("--prompt", default="Once upon a time")
    cli.add_argument("--length", type=int, default=30)
    cli.add_argument("--no_cuda", action="store_true")
    args = cli.parse_args()
    args.device = torch.device("cuda" if torch.cuda.is_available() and not args.no_cuda else "cpu")

    tokenizer = GPT2Tokenizer.from_pretrained("gpt2")
    model = GPT2LMHeadModel.from_pretrained("gpt2")
    model.to(args.device)

    prompt_ids = tokenizer.encode(args.prompt, add_special_tokens=False, return_tensors="pt")
    output = model.generate(input_ids=prompt_ids, max_length=args.length + prompt_ids.shape[1])  # bug: inputs_not_moved
    print(tokenizer.decode(output[0].tolist(), skip_special_tokens=True))


if __name__ == "__main__":
    main()
