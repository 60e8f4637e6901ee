#pragma once
// Python values to and from nlohmann::json (results and parameters cross as JSON-shaped values),
// and NumPy arrays checked with errors that name the argument.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace aeval::python {

namespace py = pybind11;

inline py::object to_python(const nlohmann::json& j) {
  switch (j.type()) {
    case nlohmann::json::value_t::null: return py::none();
    case nlohmann::json::value_t::boolean: return py::bool_(j.get<bool>());
    case nlohmann::json::value_t::number_integer: return py::int_(j.get<long long>());
    case nlohmann::json::value_t::number_unsigned: return py::int_(j.get<unsigned long long>());
    case nlohmann::json::value_t::number_float: return py::float_(j.get<double>());
    case nlohmann::json::value_t::string: return py::str(j.get<std::string>());
    case nlohmann::json::value_t::array: {
      py::list out;
      for (const auto& v : j) out.append(to_python(v));
      return out;
    }
    case nlohmann::json::value_t::object: {
      py::dict out;
      for (const auto& [k, v] : j.items()) out[py::str(k)] = to_python(v);
      return out;
    }
    default: return py::none();
  }
}

inline nlohmann::json to_json(const py::handle& o, const std::string& what) {
  if (o.is_none()) return nullptr;
  if (py::isinstance<py::bool_>(o)) return o.cast<bool>();
  if (py::isinstance<py::int_>(o)) return o.cast<long long>();
  if (py::isinstance<py::float_>(o)) return o.cast<double>();
  if (py::isinstance<py::str>(o)) return o.cast<std::string>();
  if (py::isinstance<py::dict>(o)) {
    nlohmann::json out = nlohmann::json::object();
    for (const auto& [k, v] : o.cast<py::dict>()) out[py::str(k).cast<std::string>()] = to_json(v, what);
    return out;
  }
  if (py::isinstance<py::list>(o) || py::isinstance<py::tuple>(o)) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& v : o) out.push_back(to_json(v, what));
    return out;
  }
  throw py::type_error(what + ": " + std::string(py::str(o.get_type())) + " is not a JSON value (str, number, bool, "
                       "list, dict or None)");
}

// A list (or tuple) of str; TypeError naming `what` otherwise.
inline std::vector<std::string> strings(const py::handle& o, const std::string& what) {
  if (py::isinstance<py::str>(o)) throw py::type_error(what + " must be a list of str, not one str");
  if (!py::isinstance<py::list>(o) && !py::isinstance<py::tuple>(o))
    throw py::type_error(what + " must be a list of str, not " + std::string(py::str(o.get_type())));
  std::vector<std::string> out;
  out.reserve(py::len(o));
  for (const auto& v : o) {
    if (!py::isinstance<py::str>(v))
      throw py::type_error(what + " must hold str only, not " + std::string(py::str(v.get_type())));
    out.push_back(v.cast<std::string>());
  }
  return out;
}

// A 1-D or 2-D array of real numbers, as float64 (float32 input is widened: one copy); ValueError or
// TypeError naming `what` for other dtypes, more dimensions, or no values.
inline py::array_t<double, py::array::c_style> real_array(const py::handle& o, const std::string& what, int max_dims) {
  if (!py::isinstance<py::array>(o)) throw py::type_error(what + " must be a NumPy array, not " + std::string(py::str(o.get_type())));
  const auto a = py::reinterpret_borrow<py::array>(o);
  const char kind = a.dtype().kind();
  if (kind != 'f' && kind != 'i' && kind != 'u')
    throw py::type_error(what + " must hold real numbers (float or int), not dtype " + std::string(py::str(a.dtype())));
  if (a.ndim() < 1 || a.ndim() > max_dims)
    throw py::value_error(what + " must have " + (max_dims == 1 ? std::string("1 dimension") : "1 or 2 dimensions") +
                          ", not " + std::to_string(a.ndim()));
  if (a.size() == 0) throw py::value_error(what + " is empty");
  return py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(a);
}

}  // namespace aeval::python
