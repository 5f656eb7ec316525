# source: https://github.com/thadunge2/AIDungeon/pull/56
# also: https://github.com/thadunge2/AIDungeon/commit/ca846340c1d22895c6fec36f53e0ddd64bf35dc0
# kind: inputs_not_moved
# bug: the GPT-2 story generator moved the language model to CUDA when available, but the prompt ids returned by the tokenizer stayed on the CPU and were passed straight to generate(); the fix keeps the device on the generator and moves the encoded prompt to it.
# split: test5
import time

import torch
from transformers import GPT2LMHeadModel, GPT2Tokenizer


class StoryGenerator:
    def __init__(self, checkpoint_path, max_new=60, temperature=0.4, use_cuda=True):
        self.max_new = max_new
        self.temperature = temperature
        self.seed = int(round(time.time()))
        torch.manual_seed(self.seed)
        self.tokenizer = GPT2Tokenizer.from_pretrained("gpt2")
        self.model = GPT2LMHeadModel.from_pretrained(checkpoint_path)
        self.model.to(torch.device("cuda" if torch.cuda.is_available() and use_cuda else "cpu"))

    def trim(self, prompt, limit=1000):
        return prompt[-limit:]

    def generate(self, prompt):
        prompt = self.trim(prompt)
        ids = self.tokenizer.encode(prompt, add_special_tokens=False, return_tensors="pt")
        out = self.model.generate(  # bug: inputs_not_moved
            input_ids=ids,
            max_length=ids.shape[1] + self.max_new,
            temperature=self.temperature,
            do_sample=True,
        )
        text = self.tokenizer.decode(out[0].tolist(), skip_special_tokens=True)
        return text[len(prompt):]


if __name__ == "__main__":
    gen = StoryGenerator("models/story")
    print(gen.generate("You enter the cave and"))
