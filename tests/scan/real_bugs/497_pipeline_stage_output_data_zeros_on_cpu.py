# source: https://github.com/deepspeedai/DeepSpeed/pull/5576
# kind: tensor_no_device_in_forward
# bug: after partitioning a pipeline stage's activation, the forward-pass step freed the large output by replacing its .data with torch.zeros(1), which is created on the CPU while the tensor lives on the accelerator, leaving a storage/device mismatch for the saved graph tensor; the fix allocates the placeholder on the output's own device.
# split: test23
import torch
import torch.nn as nn
import torch.distributed as dist


class PartitionedActivation:
    def __init__(self, tensor: torch.Tensor, rank: int, world: int):
        flat = tensor.detach().reshape(-1)
        chunk = (flat.numel() + world - 1) // world
        self.local = flat[rank * chunk:(rank + 1) * chunk].clone()
        self.meta = torch.tensor([tensor.dim(), *tensor.shape, chunk, world], dtype=torch.long)

    def to_meta(self):
        return self.meta

    def data(self):
        return self.local


class PipelineStage:
    def __init__(self, module: nn.Module, stage_id: int, num_stages: int, partition: bool = True):
        self.module = module
        self.stage_id = stage_id
        self.num_stages = num_stages
        self.is_pipe_partitioned = partition
        self.pipe_buffers = {"inputs": {}, "outputs": {}, "output_tensors": {}}
        self.rank = dist.get_rank() if dist.is_initialized() else 0
        self.world = dist.get_world_size() if dist.is_initialized() else 1

    def is_last_stage(self):
        return self.stage_id == self.num_stages - 1

    def _exec_forward_pass(self, buffer_id: int):
        inputs = self.pipe_buffers["inputs"][buffer_id]
        if isinstance(inputs, torch.Tensor):
            inputs = inputs.clone()
        outputs = self.module(inputs)

        if self.is_pipe_partitioned and not self.is_last_stage():
            if isinstance(outputs, tuple):
                first_output = outputs[0]
                outputs_tail = outputs[1:]
            else:
                first_output = outputs
                outputs_tail = ()
            part = PartitionedActivation(first_output, self.rank, self.world)
            first_output.data = torch.zeros(1)  # bug: tensor_no_device_in_forward
            self.pipe_buffers["output_tensors"][buffer_id] = first_output
            outputs = (part.to_meta(), part.data(), *outputs_tail)

        self.pipe_buffers["outputs"][buffer_id] = outputs
        return outputs


if __name__ == "__main__":
    dev = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    block = nn.Sequential(nn.Linear(64, 64), nn.GELU()).to(dev)
    stage = PipelineStage(block, stage_id=0, num_stages=2)
    stage.pipe_buffers["inputs"][0] = torch.randn(8, 64, device=dev, requires_grad=True)
    out = stage._exec_forward_pass(0)
    print(stage.pipe_buffers["output_tensors"][0].device, stage.pipe_buffers["output_tensors"][0].data.device)
