import os

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

from mylib.parallel import DataParallel  # the project's own class, not torch's

dist.init_process_group("nccl")
local_rank = int(os.environ["LOCAL_RANK"])
torch.cuda.set_device(local_rank)
model = DDP(torch.nn.Linear(8, 8).cuda(local_rank), device_ids=[local_rank])
shards = DataParallel(num_shards=4)
