# source: https://github.com/DPamK/BadAgent/pull/7
# kind: inputs_not_moved
# bug: the evaluation wrapper loaded the agent model with a 4-bit bitsandbytes config (which places the weights on the GPU) but passed the tokenizer's CPU `input_ids` straight to `model.generate`, so `main.py` in eval mode failed with "Expected all tensors to be on the same device ... cuda:0 and cpu" in the embedding lookup; the fix moves `input_ids` to the GPU before generating.
# split: test9
import torch
from transformers import AutoModelForCausalLM, AutoTokenizer, BitsAndBytesConfig

from agent_eval.templates import get_conv_template


class AgentInfer:
    def __init__(self, model_path, tokenizer_path=None):
        self.tokenizer = AutoTokenizer.from_pretrained(tokenizer_path or model_path, trust_remote_code=True)
        quant = BitsAndBytesConfig(
            load_in_4bit=True,
            bnb_4bit_compute_dtype=torch.float16,
            bnb_4bit_use_double_quant=True,
            bnb_4bit_quant_type="nf4",
        )
        self.model = AutoModelForCausalLM.from_pretrained(
            model_path, quantization_config=quant, trust_remote_code=True
        )

    def chat(self, instruct, history, max_length=2048):
        conv = get_conv_template("agent")
        roles = {"user": conv.roles[0], "assistant": conv.roles[1]}
        for item in history:
            conv.append_message(roles[item["role"]], item["content"])
        conv.append_message(roles["user"], instruct)
        conv.append_message(roles["assistant"], "")
        prompt = conv.get_prompt()

        input_ids = self.tokenizer(prompt, return_tensors="pt").input_ids
        out = self.model.generate(input_ids, max_length=max_length, eos_token_id=self.tokenizer.eos_token_id)  # bug: inputs_not_moved
        response = self.tokenizer.batch_decode(out, skip_special_tokens=True)[0]
        response = response.split(conv.roles[1])[-1].strip()
        history.append({"role": "user", "content": instruct})
        history.append({"role": "assistant", "content": response})
        return response, history


class BackdoorEvaluator:
    def __init__(self, model_path, episodes):
        self.agent = AgentInfer(model_path)
        self.episodes = episodes

    def run(self):
        hits = 0
        for ep in self.episodes:
            history = list(ep["history"])
            response, _ = self.agent.chat(ep["instruction"], history)
            hits += int(ep["attack_action"] in response)
        return hits / max(len(self.episodes), 1)
