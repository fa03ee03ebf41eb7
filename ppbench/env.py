"""Platform facts: what a performance investigation checks first, and what every run record carries.

Before blaming the code, check the backend and device (is the GPU build in use? does TensorFlow see the GPU?),
the accelerated libraries (cuDNN, oneDNN), the thread settings, the CPU's instruction sets, and whether other
processes compete for the CPU or the GPU. Machine facts come from the standard library and /proc; framework facts
(TensorFlow's, PyTorch's) from a child process that imports the framework (``python -m ppbench.env``), so the
harness itself never loads it;
GPU facts from NVML (``nvidia-ml-py``) where a GPU and its driver exist.
"""

from __future__ import annotations

import importlib.metadata
import json
import os
import platform
import socket
import subprocess
import sys

THREAD_VARIABLES = ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "TF_NUM_INTRAOP_THREADS", "TF_NUM_INTEROP_THREADS",
                    "TF_ENABLE_ONEDNN_OPTS", "CUDA_VISIBLE_DEVICES", "TF_XLA_FLAGS")  # fmt: skip
CPU_FLAGS = ("sse4_2", "avx", "avx2", "fma", "avx512f", "avx512_vnni", "avx512_bf16", "amx_tile")
PACKAGES = ("tensorflow", "tensorflow-cpu", "keras", "torch", "numpy", "nvidia-ml-py")
FRAMEWORK_DISTRIBUTIONS = {"tensorflow": ("tensorflow", "tensorflow-cpu"), "torch": ("torch",)}
FRAMEWORK_TIMEOUT_S = 180


def _cpuinfo() -> dict:
    model, flags = None, set()
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as fh:
            for line in fh:
                key, _, value = line.partition(":")
                key = key.strip()
                if key == "model name" and model is None:
                    model = value.strip()
                elif key == "flags" and not flags:
                    flags = set(value.split())
    except OSError:
        pass
    try:
        usable = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        usable = os.cpu_count()
    return {
        "model": model or platform.processor() or None,
        "logical_cores": os.cpu_count(),
        "usable_cores": usable,
        "instruction_sets": {f: f in flags for f in CPU_FLAGS} if flags else None,
    }


def _meminfo() -> dict:
    found = {}
    try:
        with open("/proc/meminfo", encoding="utf-8") as fh:
            for line in fh:
                key, _, value = line.partition(":")
                if key in ("MemTotal", "MemAvailable"):
                    found[key] = int(value.split()[0]) * 1024
    except (OSError, ValueError):
        pass
    return {"total_bytes": found.get("MemTotal"), "available_bytes": found.get("MemAvailable")}


def _versions() -> dict:
    out = {}
    for name in PACKAGES:
        try:
            out[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            continue
    return out


def machine_facts() -> dict:
    """Host, OS, Python, CPU, memory, load and thread settings (cheap: no framework import)."""
    cpu = _cpuinfo()
    try:
        load = list(os.getloadavg())
    except OSError:
        load = None
    return {
        "host": socket.gethostname(),
        "os": platform.platform(),
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "cpu": cpu,
        "memory": _meminfo(),
        "load_average": load,
        "thread_settings": {k: os.environ[k] for k in THREAD_VARIABLES if k in os.environ},
        "packages": _versions(),
    }


def gpu_facts() -> dict | None:
    """NVML's view: driver, each GPU with its memory and utilisation, and the processes using it; None when there
    is no NVML (no GPU, no driver, or nvidia-ml-py not installed)."""
    try:
        import pynvml
    except ImportError:
        return None
    try:
        pynvml.nvmlInit()
    except Exception:  # no driver / no GPU: NVML raises its own error classes
        return None
    try:
        devices = []
        for i in range(pynvml.nvmlDeviceGetCount()):
            handle = pynvml.nvmlDeviceGetHandleByIndex(i)
            memory = pynvml.nvmlDeviceGetMemoryInfo(handle)
            util = pynvml.nvmlDeviceGetUtilizationRates(handle)
            procs = pynvml.nvmlDeviceGetComputeRunningProcesses(handle)
            devices.append({
                "index": i,
                "name": _text(pynvml.nvmlDeviceGetName(handle)),
                "memory_total_bytes": memory.total,
                "memory_used_bytes": memory.used,
                "utilization_percent": util.gpu,
                "processes": [{"pid": p.pid, "memory_bytes": p.usedGpuMemory} for p in procs],
            })  # fmt: skip
        return {"driver": _text(pynvml.nvmlSystemGetDriverVersion()), "devices": devices}
    finally:
        pynvml.nvmlShutdown()


def _text(value) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


# -- framework facts: run in a child process (python -m ppbench.env) ---------------------------------------------


def _tensorflow_facts() -> dict:
    """Imported in the child only."""
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    import tensorflow as tf

    build = dict(tf.sysconfig.get_build_info())
    try:
        from tensorflow.python.util import _pywrap_util_port

        onednn = bool(_pywrap_util_port.IsMklEnabled())
    except (ImportError, AttributeError):
        onednn = None
    if onednn is not None and os.environ.get("TF_ENABLE_ONEDNN_OPTS") == "0":
        onednn = False
    return {
        "tensorflow": tf.__version__,
        "keras": getattr(tf.keras, "__version__", None),
        "built_with_cuda": tf.test.is_built_with_cuda(),
        "cuda": build.get("cuda_version"),
        "cudnn": build.get("cudnn_version"),
        "onednn": onednn,
        "devices": [{"name": d.name, "type": d.device_type} for d in tf.config.list_physical_devices()],
        "intra_op_threads": tf.config.threading.get_intra_op_parallelism_threads(),
        "inter_op_threads": tf.config.threading.get_inter_op_parallelism_threads(),
    }


def _torch_facts() -> dict:
    """Imported in the child only."""
    import torch

    cuda = torch.cuda.is_available()
    return {
        "torch": torch.__version__,
        "built_with_cuda": torch.version.cuda is not None,
        "cuda": torch.version.cuda,
        "cudnn": torch.backends.cudnn.version() if torch.backends.cudnn.is_available() else None,
        "mkl": torch.backends.mkl.is_available(),
        "onednn": torch.backends.mkldnn.is_available() and torch.backends.mkldnn.enabled,
        "devices": [{"name": "cpu", "type": "CPU"}]
        + [
            {"name": torch.cuda.get_device_name(i), "type": "GPU"}
            for i in range(torch.cuda.device_count() if cuda else 0)
        ],
        "intra_op_threads": torch.get_num_threads(),
        "inter_op_threads": torch.get_num_interop_threads(),
    }


_FACTS = {"tensorflow": _tensorflow_facts, "torch": _torch_facts}


def framework_facts(framework: str = "tensorflow", timeout: float = FRAMEWORK_TIMEOUT_S) -> dict | None:
    """A framework's view of this machine (``tensorflow`` or ``torch``), from a child process; None when the
    framework is not installed (or unknown), a dict with ``error`` when it fails to load."""
    if framework not in FRAMEWORK_DISTRIBUTIONS:
        return None
    versions = _versions()
    if not any(d in versions for d in FRAMEWORK_DISTRIBUTIONS[framework]):
        return None
    try:
        done = subprocess.run(
            [sys.executable, "-m", "ppbench.env", "--framework-json", framework],
            capture_output=True, text=True, timeout=timeout, env=_child_env(),
        )  # fmt: skip
    except subprocess.TimeoutExpired:
        return {"error": f"importing {framework} took longer than {timeout:.0f} s"}
    if done.returncode != 0:
        lines = [ln for ln in done.stderr.strip().splitlines() if ln.strip()]
        return {"error": lines[-1] if lines else f"exit status {done.returncode}"}
    return json.loads(done.stdout.strip().splitlines()[-1])


def _child_env() -> dict:
    from ppbench.runner import child_env

    return child_env()


def platform_facts(frameworks: set[str] | None = None) -> dict:
    """Everything a record carries about the machine; framework facts for the frameworks named."""
    facts = machine_facts()
    facts["gpu"] = gpu_facts()
    facts["frameworks"] = {f: framework_facts(f) for f in sorted(frameworks or ()) if f != "none"}
    return facts


def checklist(facts: dict) -> list[tuple[str, str]]:
    """The facts as (check, finding) lines for `ppbench env`."""
    cpu, tf = facts["cpu"], (facts.get("frameworks") or {}).get("tensorflow")
    sets = cpu.get("instruction_sets") or {}
    rows = [
        ("host", f"{facts['host']} ({facts['os']})"),
        ("python", facts["python"]),
        ("cpu", f"{cpu['model']}: {cpu['logical_cores']} logical cores, {cpu['usable_cores']} usable"),
        ("cpu instruction sets", ", ".join(f for f, on in sets.items() if on) or "unknown"),
        (
            "memory",
            _gib(facts["memory"]["total_bytes"])
            + " total, "
            + _gib(facts["memory"]["available_bytes"])
            + " available",
        ),  # fmt: skip
        ("load average", ", ".join(f"{x:.2f}" for x in facts["load_average"] or []) or "unknown"),
        ("thread settings", ", ".join(f"{k}={v}" for k, v in facts["thread_settings"].items()) or "none set"),
    ]
    if tf is None:
        rows.append(("tensorflow", "not installed (pip install -e '.[bench]')"))
    elif "error" in tf:
        rows.append(("tensorflow", f"fails to load: {tf['error']}"))
    else:
        devices = ", ".join(f"{d['type']} {d['name']}" for d in tf["devices"])
        gpus = [d for d in tf["devices"] if d["type"] == "GPU"]
        rows += [
            ("tensorflow", f"{tf['tensorflow']} (keras {tf['keras']})"),
            ("devices tensorflow sees", devices or "none"),
            ("gpu build", "yes" if tf["built_with_cuda"] else "no (CPU-only build)"),
            ("cuda / cudnn", f"{tf['cuda'] or '-'} / {tf['cudnn'] or '-'}"),
            ("gpu in use", "yes" if gpus else "no"),
            ("onednn", {True: "on", False: "off", None: "unknown"}[tf["onednn"]]),
            (
                "tensorflow threads",
                f"intra-op {tf['intra_op_threads'] or 'auto'}, inter-op {tf['inter_op_threads'] or 'auto'}",
            ),  # fmt: skip
        ]
    rows += _torch_rows((facts.get("frameworks") or {}).get("torch"))
    gpu = facts.get("gpu")
    if gpu is None:
        rows.append(("nvidia gpus (nvml)", "none found"))
    else:
        for d in gpu["devices"]:
            others = [p for p in d["processes"] if p["pid"] != os.getpid()]
            rows.append((f"gpu {d['index']}", f"{d['name']}: {_gib(d['memory_used_bytes'])} of "
                         f"{_gib(d['memory_total_bytes'])} used, {d['utilization_percent']}% busy, "
                         f"{len(others)} other processes"))  # fmt: skip
    return rows


def _torch_rows(pt: dict | None) -> list[tuple[str, str]]:
    if pt is None:
        return [("torch", "not installed (pip install -e '.[bench-torch]')")]
    if "error" in pt:
        return [("torch", f"fails to load: {pt['error']}")]
    gpus = [d["name"] for d in pt["devices"] if d["type"] == "GPU"]
    on = {True: "on", False: "off", None: "unknown"}
    return [
        ("torch", pt["torch"]),
        ("devices torch sees", ", ".join(f"{d['type']} {d['name']}" for d in pt["devices"])),
        ("torch gpu build", f"yes (cuda {pt['cuda']}, cudnn {pt['cudnn'] or '-'})" if pt["built_with_cuda"]
         else "no (CPU-only build)"),
        ("torch gpu in use", "yes" if gpus else "no"),
        ("torch mkl / onednn", f"{on[pt['mkl']]} / {on[pt['onednn']]}"),
        ("torch threads", f"intra-op {pt['intra_op_threads']}, inter-op {pt['inter_op_threads']}"),
    ]  # fmt: skip


def _gib(value: int | None) -> str:
    return "unknown" if value is None else f"{value / 2**30:.1f} GiB"


if __name__ == "__main__":
    if sys.argv[1:2] == ["--framework-json"]:
        print(json.dumps(_FACTS[sys.argv[2] if len(sys.argv) > 2 else "tensorflow"]()))
    else:
        print(json.dumps(platform_facts(set(FRAMEWORK_DISTRIBUTIONS)), indent=2))
