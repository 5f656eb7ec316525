# source: https://github.com/mit-han-lab/streaming-llm/pull/20
# kind: other
# bug: the streaming example loaded the model with device_map="auto" (so its placement depends on the machine) but moved each prompt's input_ids to the literal "cuda", which breaks wherever the model is elsewhere; the fix moved them to model.device.
# split: test2
import torch
from transformers import AutoModelForCausalLM, AutoTokenizer


def load(name):
    tok = AutoTokenizer.from_pretrained(name)
    lm = AutoModelForCausalLM.from_pretrained(name, device_map="auto", torch_dtype=torch.float16)
    return lm.eval(), tok


@torch.no_grad()
def stream_answers(lm, tok, prompts, max_new=64):
    past = None
    for text in prompts:
        input_ids = tok(text, return_tensors="pt").input_ids
        input_ids = input_ids.to("cuda")  # bug: other
        out = lm(input_ids=input_ids, past_key_values=past, use_cache=True)
        past = out.past_key_values
        token = out.logits[:, -1].argmax(-1, keepdim=True)
        pieces = [token.item()]
        for _ in range(max_new - 1):
            out = lm(input_ids=token, past_key_values=past, use_cache=True)
            past = out.past_key_values
            token = out.logits[:, -1].argmax(-1, keepdim=True)
            pieces.append(token.item())
        yield tok.decode(pieces)
