# unit tests a file named test.py holds (hold-out 19's normalizing_flows): the module imports unittest, so
# a loader a TestCase trains on feeds a toy check, not a training run: PP505 at medium
import unittest

import torch
from datasets import TOY
from flows import Glow
from torch.utils.data import DataLoader


class TestGlowTrained(unittest.TestCase):
    def setUp(self):
        self.loader = DataLoader(TOY(), batch_size=100)  # expect: PP504 # expect: PP505 medium

    def test_training_lowers_the_loss(self):
        model = Glow(width=12, depth=2, n_levels=2).cuda()
        optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
        for x, _ in self.loader:
            loss = -model.log_prob(x.cuda()).mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        self.assertTrue(torch.isfinite(loss))
