# The same helper, moving the ids to the model's device; and one built with a model left on the CPU.
from transformers import AutoModelForCausalLM, AutoTokenizer


class Completer:
    def __init__(self, model, tokenizer):
        self.model, self.tok = model, tokenizer

    def complete(self, text):
        ids = self.tok.encode(text, return_tensors="pt").to(self.model.device)
        return self.tok.decode(self.model.generate(ids, max_new_tokens=16)[0])


class CpuCompleter:
    def __init__(self, model, tokenizer):
        self.model, self.tok = model, tokenizer

    def complete(self, text):
        ids = self.tok.encode(text, return_tensors="pt")
        return self.tok.decode(self.model.generate(ids)[0])


tok = AutoTokenizer.from_pretrained("gpt2")
print(Completer(AutoModelForCausalLM.from_pretrained("gpt2").cuda(), tok).complete("Hello"))
print(CpuCompleter(AutoModelForCausalLM.from_pretrained("gpt2"), tok).complete("Hello"))
