#include "bindings/batch_args.hpp"

#include <cmath>

#include "core/check.hpp"

namespace torsion::bindings::batch_args {

using namespace py_convert;

std::string shape_text(const std::vector<ssize>& shape) {
  std::string s = "(";
  for (std::size_t k = 0; k < shape.size(); ++k) {
    if (k) s += ", ";
    s += std::to_string(shape[k]);
  }
  return s + (shape.size() == 1 ? ",)" : ")");
}

std::string shape_text(const py::array& a) {
  std::vector<ssize> shape(a.shape(), a.shape() + a.ndim());
  return shape_text(shape);
}

// `out` for a result of this shape: a fresh array when out is None, otherwise out itself after
// checking it is a writeable, C-contiguous float64 ndarray of exactly that shape
py::array_t<double> output_array(const py::object& out, const std::vector<ssize>& shape,
                                 const char* name) {
  if (out.is_none()) return py::array_t<double>(shape);
  const std::string want = "a writeable C-contiguous float64 numpy array of shape " + shape_text(shape);
  if (!py::isinstance<py::array>(out))
    throw py::value_error(std::string(name) + " must be " + want + " or None, got " +
                          std::string(py::str(py::type::of(out).attr("__name__"))));
  py::array a = py::reinterpret_borrow<py::array>(out);
  if (!a.dtype().is(py::dtype::of<double>()))
    throw py::value_error(std::string(name) + " must be " + want + ", got dtype " +
                          std::string(py::str(a.dtype())));
  if (!(a.flags() & py::array::c_style))
    throw py::value_error(std::string(name) + " must be " + want + ", got a non-contiguous array");
  if (!a.writeable())
    throw py::value_error(std::string(name) + " must be " + want + ", got a read-only array");
  if (a.ndim() != static_cast<ssize>(shape.size()) ||
      !std::equal(shape.begin(), shape.end(), a.shape()))
    throw py::value_error(std::string(name) + " must be " + want + ", got shape " + shape_text(a));
  return py::reinterpret_borrow<py::array_t<double>>(out);
}

Rows input_rows(py::handle obj, const char* name, ssize n, const std::vector<ssize>& tail,
                bool broadcast) {
  std::vector<ssize> full{n};
  full.insert(full.end(), tail.begin(), tail.end());
  std::string want = "shape " + shape_text(full);
  if (broadcast) want += " (or " + shape_text(tail) + ", the same for every world)";
  Rows r;
  r.array = to_float_array(obj, name, want.c_str());
  r.width = 1;
  for (ssize t : tail) r.width *= t;
  const auto& a = r.array;
  const auto matches = [&](const std::vector<ssize>& shape) {
    return a.ndim() == static_cast<ssize>(shape.size()) &&
           std::equal(shape.begin(), shape.end(), a.shape());
  };
  if (matches(full)) {
    r.stride = r.width;
  } else if (broadcast && matches(tail)) {
    r.stride = 0;
  } else {
    throw py::value_error(std::string(name) + " must have " + want + ", got shape " +
                          shape_text(a));
  }
  return r;
}

// every value of the rows finite; ValueError naming the argument and the world otherwise
void check_finite_rows(const Rows& r, std::size_t n, const char* name) {
  const std::size_t rows = r.stride == 0 ? 1 : n;
  for (std::size_t i = 0; i < rows; ++i) {
    const double* p = r.row(i);
    for (ssize k = 0; k < r.width; ++k)
      if (!std::isfinite(p[k]))
        throw py::value_error(std::string(name) + " must be finite; " +
                              (r.stride == 0 ? std::string("entry ") + std::to_string(k)
                                             : "row " + std::to_string(i) + ", entry " +
                                                   std::to_string(k)) +
                              " is " + fmt(p[k]));
  }
}

// indices of worlds: a 1-D array-like of ints, each in [0, n) (negative ones count from the end)
std::vector<std::int64_t> world_indices(py::handle obj, std::size_t n, const char* name) {
  const py::array src = py::array::ensure(obj);
  if (src && src.ndim() == 1 && src.size() == 0) return {};  // [] is float64 to NumPy
  if (!src || src.ndim() != 1 || (src.dtype().kind() != 'i' && src.dtype().kind() != 'u'))
    throw py::value_error(std::string(name) + " must be a 1-D array-like of world indices (ints)" +
                          (src ? ", got shape " + shape_text(src) + " of dtype " +
                                     std::string(py::str(src.dtype()))
                               : std::string()));
  PyErr_Clear();
  const auto a = py::array_t<std::int64_t, py::array::c_style | py::array::forcecast>::ensure(src);
  if (!a) throw py::value_error(std::string(name) + " must hold ints that fit in 64 bits");
  std::vector<std::int64_t> out(a.data(), a.data() + a.size());
  const std::int64_t count = static_cast<std::int64_t>(n);
  for (std::size_t k = 0; k < out.size(); ++k) {
    std::int64_t i = out[k];
    if (src.dtype().kind() == 'u' && i < 0) i = count;  // past 2**63: out of range
    if (i < 0) i += count;
    if (i < 0 || i >= count)
      throw py::index_error(std::string(name) + "[" + std::to_string(k) + "] = " +
                            std::to_string(out[k]) + " is out of range for a batch of " +
                            std::to_string(n) + " worlds");
    out[k] = i;
  }
  return out;
}

}  // namespace torsion::bindings::batch_args
