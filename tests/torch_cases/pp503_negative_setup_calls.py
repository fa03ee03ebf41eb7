"""torch-fix84: calls in an evaluation loop that hold a model word but run no forward: a logger's `critical`
(the word `critic`), a def that builds or configures a model (`define_model`, `set_active_subnet`), and a
walk over a network's own layers, one call per child on a probe input."""

import logging

import torch

logger = logging.getLogger(__name__)


def eval_one_epoch(engine, loader):
    engine.model.eval()
    for iteration, batch in enumerate(loader):
        message = engine.summary(batch)
        logger.critical(f"iteration {iteration}: {message}")


def test(opt, test_sets, define_model):
    for name in test_sets:
        model = define_model(opt)
        model.eval()
        print(name, model)


def validate(net, subnet_settings, run_validation):
    net.eval()
    for setting in subnet_settings:
        net.set_active_subnet(**setting)
        run_validation(net)


def extract_decomposable_modules(parent_module, z, module_list):
    parent_module = parent_module.eval().cpu()
    expected_z = parent_module(z)
    child_modules = list(parent_module.children())
    for child_module in child_modules:
        z, decomposable = extract_decomposable_modules(child_module, z, module_list)
        if not decomposable:
            break
    return expected_z, torch.equal(expected_z, z)
