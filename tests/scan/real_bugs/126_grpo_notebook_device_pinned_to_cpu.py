# source: https://github.com/rasbt/reasoning-from-scratch/pull/129
# also: https://github.com/rasbt/reasoning-from-scratch/commit/df9a1cbfc61f89bc651ec5a0145d4b34b76af63b
# kind: hardcoded_cpu
# bug: (notebook) the GRPO chapter overrode `device = get_device()` with `device = torch.device("cpu")` and ran the whole RL training loop with the model and rollouts on the CPU (its scoring helper also built token ids with a bare `torch.tensor`); the merged PR re-resolves the device and moves the model before training, and creates the ids with `device=`.
# split: test3
import torch

from reasoning.ch02 import get_device
from reasoning.ch03 import load_model_and_tokenizer
from reasoning.ch06 import sequence_logprob, train_grpo

device = get_device()
device = torch.device("cpu")  # bug: hardcoded_cpu

model, tokenizer = load_model_and_tokenizer("qwen3-0.6B", device=device)


def score_answer(model, tokenizer, prompt, text):
    prompt_len = len(tokenizer.encode(prompt))
    ids = tokenizer.encode(prompt + " " + text)
    return sequence_logprob(model=model, token_ids=torch.tensor(ids), prompt_len=prompt_len)


if __name__ == "__main__":
    print(score_answer(model, tokenizer, "What is 2+2?", "4"))
    train_grpo(
        model=model,
        tokenizer=tokenizer,
        device=device,
        steps=50,
        num_rollouts=4,
        checkpoint_every=5,
    )
