# source: https://github.com/EricFillion/happy-transformer/issues/220
# kind: inputs_not_moved
# bug: after train() had put the wrapped GPT model on the GPU, generate_text() still encoded the prompt into CPU input_ids and called the model's generate with them; the maintainer fixed it (release 2.2.2) by moving the ids to the model's device.
# split: test2
import torch
from transformers import AutoModelForCausalLM, AutoTokenizer


class PromptWriter:
    def __init__(self, name="gpt2"):
        self.tok = AutoTokenizer.from_pretrained(name)
        self.lm = AutoModelForCausalLM.from_pretrained(name)

    def fine_tune(self, texts, epochs=1):
        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        self.lm.to(device).train()
        opt = torch.optim.AdamW(self.lm.parameters(), lr=5e-5)
        for _ in range(epochs):
            for t in texts:
                ids = self.tok(t, return_tensors="pt").input_ids.to(device)
                loss = self.lm(ids, labels=ids).loss
                opt.zero_grad()
                loss.backward()
                opt.step()

    def write(self, prompt, length=40):
        ids = self.tok.encode(prompt, return_tensors="pt")
        out = self.lm.generate(ids, max_length=length, do_sample=True)  # bug: inputs_not_moved
        return self.tok.decode(out[0], skip_special_tokens=True)
