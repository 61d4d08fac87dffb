// Conversions at the Python boundary: array-likes in (shape-checked, with the expected shape in
// the error), fresh NumPy float64 arrays out.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "core/ids.hpp"
#include "math/types.hpp"

namespace torsion::py_convert {

namespace py = pybind11;

// a C-contiguous float64 array of real numbers (the same object when obj already is one): bools,
// integers, floats, or objects that each are a real number; ValueError naming `arg` (and `want`,
// what was expected) for anything else: complex (NumPy would drop the imaginary part), None (NaN)
// strings, dates
py::array_t<double, py::array::c_style | py::array::forcecast> to_float_array(py::handle obj,
                                                                             const char* arg,
                                                                             const char* want);
// any array-like of `n` numbers (shape (n,)); ValueError naming `arg` otherwise
Eigen::VectorXd to_vector(py::handle obj, const char* arg, int n);
Vec3 to_vec3(py::handle obj, const char* arg);
Vec4 to_vec4(py::handle obj, const char* arg);
// to_vec3, and ValueError naming `arg` unless every component is finite (a gravity, a point)
Vec3 to_finite_vec3(py::handle obj, const char* arg);
// a (3, 3) array-like
Mat3 to_mat3(py::handle obj, const char* arg);
// a Python int (not a bool) as a signed 64-bit integer; none when obj is another type or an int
// outside [-2**63, 2**63) (which pybind11's casts refuse with a generic "Unable to cast" error)
std::optional<std::int64_t> to_int64(py::handle obj);
// a Python int (not a bool) as an index in [0, count): IndexError "<what> index <obj> is out of
// range [0, count)" for any other int, however large; none when obj is not an int
std::optional<std::size_t> to_index(py::handle obj, std::size_t count, const char* what);
// a Python int as a 64-bit group/mask: 0 <= v < 2**64, or negative two's complement (-1 = all)
CollisionGroup to_group(py::handle obj, const char* arg);

// a C-contiguous float64 array of shape (rows, cols) (cols == 0: shape (rows,)); rows < 0 means
// any number of rows. ValueError naming `arg` and the expected shape otherwise.
py::array_t<double, py::array::c_style | py::array::forcecast> to_rows(py::handle obj,
                                                                       const char* arg,
                                                                       py::ssize_t rows, int cols);

// a file-system path from a str, bytes or os.PathLike (os.fspath; bytes as given, str encoded
// like os.fsencode): ValueError naming `arg` for another type or an embedded NUL byte (which the
// C library would silently cut the path at)
std::string to_path(py::handle obj, const char* arg);
// ValueError naming `arg` if `path` (a path or a file-name part) holds a NUL byte
void check_no_nul(const std::string& path, const char* arg);

// The values of a template's @@name tokens from `params` (None: none; else a dict of str keys):
// str(value), floats by repr (they read back exactly), bools as true/false. ValueError otherwise.
std::map<std::string, std::string> template_values(py::handle params);

// A fresh, uninitialised C-contiguous float64 array, made with NumPy's C API directly (through
// pybind11's table of it): about half the cost of pybind11's generic array constructor.
inline py::array_t<double> fresh_float64_array(int ndim, const Py_intptr_t* dims) {
  auto& api = py::detail::npy_api::get();
  PyObject* descr = api.PyArray_DescrFromType_(py::detail::npy_api::NPY_DOUBLE_);
  PyObject* arr = api.PyArray_NewFromDescr_(api.PyArray_Type_, descr, ndim,
                                            const_cast<Py_intptr_t*>(dims), nullptr, nullptr, 0,
                                            nullptr);
  if (!arr) throw py::error_already_set();
  return py::reinterpret_steal<py::array_t<double>>(arr);
}

// The one NumPy output helper: a fresh float64 array (a copy) of an Eigen vector or matrix (or
// expression). A compile-time column vector (Vec3, VecX, v.tail(n), ...) gives shape (n,),
// anything else (Mat3, MatX, a block) shape (rows, cols) in C order.
template <class Derived>
py::array_t<double> to_numpy(const Eigen::DenseBase<Derived>& m) {
  if constexpr (Derived::ColsAtCompileTime == 1) {
    const Py_intptr_t dims[1] = {static_cast<Py_intptr_t>(m.rows())};
    auto a = fresh_float64_array(1, dims);
    Eigen::Map<Eigen::VectorXd>(a.mutable_data(), m.rows()) = m.derived();
    return a;
  } else {
    const Py_intptr_t dims[2] = {static_cast<Py_intptr_t>(m.rows()),
                                 static_cast<Py_intptr_t>(m.cols())};
    auto a = fresh_float64_array(2, dims);
    using RowMajor = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
    Eigen::Map<RowMajor>(a.mutable_data(), m.rows(), m.cols()) = m.derived();
    return a;
  }
}

}  // namespace torsion::py_convert
