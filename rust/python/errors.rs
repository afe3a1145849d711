//! Errors: the core's `Error` as Python exceptions, and the action error classes
//! shared with the reference engine (`dragoncastle.errors`).

use super::*;

/// `(getattr, (class, name))`: how an enum member pickles.
pub(crate) type ByName<'py> = (Bound<'py, PyAny>, (Bound<'py, PyType>, &'static str));

/// `getattr(type(member), name)`: how an enum member pickles and copies.
pub(crate) fn by_name<'py>(member: &Bound<'py, PyAny>, name: &'static str) -> PyResult<ByName<'py>> {
    Ok((member.py().import("builtins")?.getattr("getattr")?, (member.get_type(), name)))
}

/// `dragoncastle.errors.InvalidActionError` and `IllegalActionError`: Python
/// classes shared with the reference engine, so that one `except` serves
/// both engines.
pub(crate) static ERROR_CLASSES: PyOnceLock<(Py<PyType>, Py<PyType>)> = PyOnceLock::new();

pub(crate) fn error_classes(py: Python<'_>) -> PyResult<&(Py<PyType>, Py<PyType>)> {
    ERROR_CLASSES.get_or_try_init(py, || {
        let m = py.import("dragoncastle.errors")?;
        let class = |name: &str| -> PyResult<Py<PyType>> { Ok(m.getattr(name)?.cast_into::<PyType>()?.unbind()) };
        Ok((class("InvalidActionError")?, class("IllegalActionError")?))
    })
}

/// An action error with its attributes: `invalid` for input that names no
/// action, else an action that is not legal now.
pub(crate) fn action_error(invalid: bool, message: String, action: Option<String>, phase: Option<&str>, reason: String) -> PyErr {
    Python::attach(|py| {
        let make = || -> PyResult<PyErr> {
            let (inv, ill) = error_classes(py)?;
            let class = if invalid { inv } else { ill };
            let kwargs = PyDict::new(py);
            kwargs.set_item("action", action)?;
            kwargs.set_item("phase", phase)?;
            kwargs.set_item("reason", reason)?;
            Ok(PyErr::from_value(class.bind(py).call((message,), Some(&kwargs))?))
        };
        make().unwrap_or_else(|e| e)
    })
}

/// Input that names no action (`input` as given, when known).
pub(crate) fn invalid_action(input: Option<String>, reason: String) -> PyErr {
    action_error(true, reason.clone(), input, None, reason)
}

pub(crate) fn to_py_err(e: Error) -> PyErr {
    match e {
        Error::Illegal { ref action, phase, ref reason } => {
            action_error(false, e.to_string(), Some(action.clone()), Some(phase), reason.clone())
        }
        Error::Parse(m) => invalid_action(None, m),
        Error::Setup(_) | Error::Eval(_) => PyValueError::new_err(e.to_string()),
    }
}

pub(crate) fn setup_err(e: Error) -> PyErr {
    PyValueError::new_err(e.to_string())
}
