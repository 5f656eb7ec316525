# A helper class keeps the language model it is handed; every construction hands it one on the GPU,
# and its methods feed it token ids made on the CPU.
from transformers import AutoModelForCausalLM, AutoTokenizer


class Completer:
    def __init__(self, model, tokenizer):
        self.model, self.tok = model, tokenizer

    def complete(self, text):
        ids = self.tok.encode(text, return_tensors="pt")  # expect: code.inputs_not_moved
        out = self.model.generate(ids, max_new_tokens=16)
        return self.tok.decode(out[0])


tok = AutoTokenizer.from_pretrained("gpt2")
lm = AutoModelForCausalLM.from_pretrained("gpt2").cuda()
print(Completer(lm, tok).complete("Hello"))
