"""A local stand-in for the Stack Exchange API 2.3 (``/filters/create`` and ``/questions``), on 127.0.0.1.

Real HTTP, real gzip, the API's wrapper fields and error payloads; items are built from a real response
(``tests/fixtures/se_api_json/perceval``) so the client parses true shapes. Tests steer it with ``faults``.
"""

from .data import make_questions
from .keycheck import REAL_KEY, assert_no_key, key_forms
from .server import FakeApi, Fault

__all__ = ["FakeApi", "Fault", "REAL_KEY", "assert_no_key", "key_forms", "make_questions"]
