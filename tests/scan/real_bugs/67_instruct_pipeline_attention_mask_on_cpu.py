# source: https://github.com/databrickslabs/dolly/pull/180
# also: https://github.com/databrickslabs/dolly/commit/5021d941d95dddcf1f00d978d7f944709873f419
# kind: inputs_not_moved
# bug: the generation pipeline moved input_ids to the model's device but passed the tokenizer's attention mask along still on the CPU; the fix moved the mask to model.device as well.
# split: dev2
import torch
from transformers import AutoModelForCausalLM, AutoTokenizer


class PromptGenerator:
    def __init__(self, name: str):
        self.tok = AutoTokenizer.from_pretrained(name, padding_side="left")
        self.model = AutoModelForCausalLM.from_pretrained(name, torch_dtype=torch.bfloat16).to("cuda")

    def encode(self, instruction: str):
        text = f"### Instruction:\n{instruction}\n### Response:\n"
        return self.tok(text, return_tensors="pt")

    def generate(self, instruction: str, **kw) -> str:
        enc = self.encode(instruction)
        ids, mask = enc["input_ids"], enc.get("attention_mask")
        out = self.model.generate(
            input_ids=ids.to(self.model.device),
            attention_mask=mask,  # bug: inputs_not_moved
            pad_token_id=self.tok.pad_token_id,
            **kw,
        )
        return self.tok.decode(out[0, ids.shape[1]:], skip_special_tokens=True)


if __name__ == "__main__":
    print(PromptGenerator("some/instruct-model").generate("Name three colours.", max_new_tokens=32))
