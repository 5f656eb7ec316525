# source: https://github.com/1rgs/jsonformer/issues/9
# also: https://github.com/1rgs/jsonformer/commit/3c06fe00c2a213ab16ef91003085f8086b2edab4
# kind: inputs_not_moved
# bug: the structured generator encoded the prompt with the tokenizer and passed the CPU ids to a model the user had put on the GPU; the fix moved them to self.model.device before generate/forward.
# split: dev2
from transformers import AutoModelForCausalLM, AutoTokenizer


class SchemaFiller:
    def __init__(self, model, tokenizer, schema, prompt, max_tokens=12):
        self.model, self.tok = model, tokenizer
        self.schema, self.prompt, self.max_tokens = schema, prompt, max_tokens

    def gen_number(self, partial: str) -> str:
        ids = self.tok.encode(self.prompt + partial, return_tensors="pt")  # bug: inputs_not_moved
        out = self.model.generate(ids, max_new_tokens=self.max_tokens, num_return_sequences=1,
                                  pad_token_id=self.tok.eos_token_id)
        text = self.tok.decode(out[0][ids.shape[1]:], skip_special_tokens=True)
        return text.strip().split(",")[0]

    def gen_bool(self, partial: str) -> bool:
        ids = self.tok.encode(self.prompt + partial, return_tensors="pt")  # bug: inputs_not_moved
        logits = self.model(ids).logits[0, -1]
        yes, no = self.tok.convert_tokens_to_ids(["true", "false"])
        return bool(logits[yes] > logits[no])


if __name__ == "__main__":
    tok = AutoTokenizer.from_pretrained("some/base-7b")
    lm = AutoModelForCausalLM.from_pretrained("some/base-7b").half().cuda()
    print(SchemaFiller(lm, tok, {}, "Person:").gen_number('{"age": '))
