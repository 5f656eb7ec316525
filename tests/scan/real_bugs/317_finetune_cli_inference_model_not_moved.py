# source: https://github.com/axolotl-ai-cloud/axolotl/pull/483
# also: https://github.com/axolotl-ai-cloud/axolotl/commit/17605b85d8046b7dee53289175dea17b8700fe0b
# kind: model_not_moved
# bug: the fine-tuning CLI's interactive inference mode moved each tokenized prompt to `cfg.device` before `generate`, but the model it received had never been moved there, so generation mixed CUDA inputs with CPU weights; the merged fix adds `model = model.to(cfg.device)` before the prompt loop.
# split: test14
from types import SimpleNamespace

import torch
from transformers import AutoModelForCausalLM, AutoTokenizer, GenerationConfig


def read_prompt():
    lines = []
    while True:
        line = input()
        if not line:
            break
        lines.append(line)
    return "\n".join(lines)


def do_inference(cfg, model, tokenizer):
    for token, symbol in {"bos_token": "<s>", "eos_token": "</s>", "unk_token": "<unk>"}.items():
        if getattr(tokenizer, token) is None:
            tokenizer.add_special_tokens({token: symbol})

    while True:
        print("=" * 80)
        prompt = read_prompt().strip()
        if not prompt:
            return
        batch = tokenizer(prompt, return_tensors="pt", add_special_tokens=True)
        model.eval()
        with torch.no_grad():
            gen_cfg = GenerationConfig(max_new_tokens=256, temperature=0.9, top_p=0.95, do_sample=True,
                                       pad_token_id=tokenizer.pad_token_id, return_dict_in_generate=True)
            generated = model.generate(inputs=batch["input_ids"].to(cfg.device), generation_config=gen_cfg)  # bug: model_not_moved
        print(tokenizer.decode(generated["sequences"].cpu().tolist()[0]))


def main(cfg, inference=False):
    tokenizer = AutoTokenizer.from_pretrained(cfg.base_model)
    model = AutoModelForCausalLM.from_pretrained(cfg.base_model, torch_dtype=torch.float16)
    if inference:
        do_inference(cfg, model, tokenizer)
        return
    model.to(cfg.device)


if __name__ == "__main__":
    cfg = SimpleNamespace(base_model="my-org/tiny-llama", device="cuda:0")
    main(cfg, inference=True)
