#include "bindings/convert.hpp"

#include <sstream>

#include "core/check.hpp"

namespace torsion::py_convert {

namespace {

std::string shape_str(const py::array& a) {
  std::ostringstream s;
  s << "(";
  for (py::ssize_t i = 0; i < a.ndim(); ++i) s << (i ? ", " : "") << a.shape(i);
  if (a.ndim() == 1) s << ",";
  s << ")";
  return s.str();
}

std::string type_name(py::handle obj) {
  return py::str(py::type::of(obj).attr("__name__")).cast<std::string>();
}

// true for a real number as an element of an object array: an int, float, bool, Fraction,
// Decimal or NumPy real scalar (numbers.Real, or a numbers.Number that is not complex)
bool is_real_number(py::handle x) {
  if (PyFloat_Check(x.ptr()) || PyLong_Check(x.ptr())) return true;
  const py::module_ numbers = py::module_::import("numbers");
  if (py::isinstance(x, numbers.attr("Real"))) return true;
  return py::isinstance(x, numbers.attr("Number")) &&
         !py::isinstance(x, numbers.attr("Complex"));
}

// NumPy's cast to float64 takes a complex array's real part (a ComplexWarning at most: an
// imaginary part of 5 vanished from a position), an object array's None as NaN (a silent hole in
// a height map) and strings and dates as numbers. The data must be real numbers: an array (or
// what np.asarray makes of a list) of bools, integers or floats, or of objects that each are a
// real number.
void check_real(const py::array& src, const char* arg) {
  const char kind = src.dtype().kind();
  if (kind == 'b' || kind == 'i' || kind == 'u' || kind == 'f') return;
  if (kind == 'O') {
    const py::object flat = src.attr("ravel")();
    py::ssize_t i = 0;
    for (py::handle x : flat) {
      if (!is_real_number(x))
        throw py::value_error(std::string(arg) + " must hold real numbers, got " +
                              py::repr(x).cast<std::string>() + " (a " + type_name(x) +
                              ") at flat index " + std::to_string(i));
      ++i;
    }
    return;
  }
  throw py::value_error(std::string(arg) + " must hold real numbers, got an array of dtype " +
                        py::str(src.dtype()).cast<std::string>() +
                        (kind == 'c' ? " (complex: the imaginary part would be dropped)" : ""));
}

}  // namespace

py::array_t<double, py::array::c_style | py::array::forcecast> to_float_array(py::handle obj,
                                                                             const char* arg,
                                                                             const char* want) {
  using Float = py::array_t<double, py::array::c_style | py::array::forcecast>;
  if (Float::check_(obj)) return py::reinterpret_borrow<Float>(obj);  // float64 C-contiguous
  const py::array src = py::array::ensure(obj);  // as it is: the dtype the data has
  // (a lone object is no array-like: NumPy wraps it in an array of no dimensions)
  if (src && !(src.ndim() == 0 && src.dtype().kind() == 'O')) {
    check_real(src, arg);
    if (Float a = Float::ensure(src)) return a;
  }
  PyErr_Clear();
  throw py::value_error(std::string(arg) + " must be an array-like of " + want + ", got " +
                        type_name(obj));
}

Eigen::VectorXd to_vector(py::handle obj, const char* arg, int n) {
  const std::string want = std::to_string(n) + " numbers (shape (" + std::to_string(n) + ",))";
  auto a = to_float_array(obj, arg, want.c_str());
  if (a.ndim() != 1 || a.shape(0) != n)
    throw py::value_error(std::string(arg) + " must have shape (" + std::to_string(n) +
                          ",), got shape " + shape_str(a));
  Eigen::VectorXd v(n);
  for (int i = 0; i < n; ++i) v[i] = a.at(i);
  return v;
}

Vec3 to_vec3(py::handle obj, const char* arg) { return to_vector(obj, arg, 3); }
Vec4 to_vec4(py::handle obj, const char* arg) { return to_vector(obj, arg, 4); }

Vec3 to_finite_vec3(py::handle obj, const char* arg) {
  const Vec3 v = to_vec3(obj, arg);
  check_finite_vec(v, arg);
  return v;
}

Mat3 to_mat3(py::handle obj, const char* arg) {
  auto a = to_float_array(obj, arg, "3x3 numbers (shape (3, 3))");
  if (a.ndim() != 2 || a.shape(0) != 3 || a.shape(1) != 3)
    throw py::value_error(std::string(arg) + " must have shape (3, 3), got shape " + shape_str(a));
  Mat3 m;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) m(i, j) = a.at(i, j);
  return m;
}

CollisionGroup to_group(py::handle obj, const char* arg) {
  if (!PyLong_Check(obj.ptr()) || PyBool_Check(obj.ptr()))
    throw py::value_error(std::string(arg) + " must be an int (a 64-bit mask, -1 for all bits), got " +
                          std::string(py::str(py::type::of(obj).attr("__name__"))));
  int overflow = 0;
  const long long s = PyLong_AsLongLongAndOverflow(obj.ptr(), &overflow);
  if (overflow == 0) {
    if (s == -1 && PyErr_Occurred()) throw py::error_already_set();
    return static_cast<CollisionGroup>(s);  // negative: two's complement, -1 = all bits
  }
  if (overflow > 0) {
    const unsigned long long u = PyLong_AsUnsignedLongLong(obj.ptr());
    if (!PyErr_Occurred()) return static_cast<CollisionGroup>(u);
    PyErr_Clear();
  }
  throw py::value_error(std::string(arg) + " must fit in 64 bits (-2**63 <= v < 2**64), got " +
                        std::string(py::str(obj)));
}

py::array_t<double, py::array::c_style | py::array::forcecast> to_rows(py::handle obj,
                                                                       const char* arg,
                                                                       py::ssize_t rows, int cols) {
  const std::string r = rows < 0 ? "N" : std::to_string(rows);
  const std::string want = cols == 0 ? "(" + r + ",)" : "(" + r + ", " + std::to_string(cols) + ")";
  auto a = to_float_array(obj, arg, ("numbers of shape " + want).c_str());
  const bool ok = cols == 0 ? a.ndim() == 1 && (rows < 0 || a.shape(0) == rows)
                            : a.ndim() == 2 && a.shape(1) == cols && (rows < 0 || a.shape(0) == rows);
  if (!ok)
    throw py::value_error(std::string(arg) + " must have shape " + want + ", got shape " +
                          shape_str(a));
  return a;
}

std::optional<std::int64_t> to_int64(py::handle obj) {
  if (!PyLong_Check(obj.ptr()) || PyBool_Check(obj.ptr())) return std::nullopt;
  int overflow = 0;
  const long long v = PyLong_AsLongLongAndOverflow(obj.ptr(), &overflow);
  if (overflow != 0) return std::nullopt;
  if (v == -1 && PyErr_Occurred()) throw py::error_already_set();
  return static_cast<std::int64_t>(v);
}

std::optional<std::size_t> to_index(py::handle obj, std::size_t count, const char* what) {
  if (!PyLong_Check(obj.ptr()) || PyBool_Check(obj.ptr())) return std::nullopt;
  const std::optional<std::int64_t> i = to_int64(obj);
  if (!i || *i < 0 || static_cast<std::uint64_t>(*i) >= count)
    throw py::index_error(std::string(what) + " index " + py::str(obj).cast<std::string>() +
                          " is out of range [0, " + std::to_string(count) + ")");
  return static_cast<std::size_t>(*i);
}

std::map<std::string, std::string> template_values(py::handle params) {
  std::map<std::string, std::string> values;
  if (params.is_none()) return values;
  if (!py::isinstance<py::dict>(params))
    throw py::value_error("params must be a dict {name: value} or None");
  for (auto item : py::reinterpret_borrow<py::dict>(params)) {
    if (!py::isinstance<py::str>(item.first))
      throw py::value_error("params keys must be str (the names of @@name tokens)");
    py::handle v = item.second;
    std::string text;
    if (py::isinstance<py::bool_>(v)) text = v.cast<bool>() ? "true" : "false";
    else if (py::isinstance<py::float_>(v)) text = py::repr(v).cast<std::string>();
    else text = py::str(v).cast<std::string>();
    values[item.first.cast<std::string>()] = text;
  }
  return values;
}

std::string to_path(py::handle obj, const char* arg) {
  const py::object p = py::reinterpret_steal<py::object>(PyOS_FSPath(obj.ptr()));
  if (!p) {
    PyErr_Clear();
    throw py::value_error(std::string(arg) + " must be a path (str, bytes or os.PathLike), got " +
                          std::string(py::str(py::type::of(obj).attr("__name__"))));
  }
  // bytes unchanged; str encoded with the file-system encoding (surrogateescape), as os.fsencode
  const py::object b = PyBytes_Check(p.ptr())
                           ? p
                           : py::reinterpret_steal<py::object>(PyUnicode_EncodeFSDefault(p.ptr()));
  if (!b) {  // a lone surrogate that os.fsdecode cannot have made (outside U+DC80..U+DCFF)
    PyErr_Clear();
    throw py::value_error(std::string(arg) + " must be a path the file-system encoding can " +
                          "encode, got " + py::repr(p).cast<std::string>());
  }
  std::string s(PyBytes_AS_STRING(b.ptr()), static_cast<std::size_t>(PyBytes_GET_SIZE(b.ptr())));
  check_no_nul(s, arg);
  return s;
}

void check_no_nul(const std::string& path, const char* arg) {
  const auto at = path.find('\0');
  if (at != std::string::npos)
    throw py::value_error(std::string(arg) + " must not contain a NUL byte (found at position " +
                          std::to_string(at) + ")");
}

}  // namespace torsion::py_convert
