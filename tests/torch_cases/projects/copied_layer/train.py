"""Builds the block the project trains."""

import torch
from layers import Block

block = Block(8)
print(block(torch.zeros(2, 4, 8)).shape)
