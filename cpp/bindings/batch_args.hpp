// What the WorldBatch bindings (bind_batch.cpp) and their ArticulatedView (bind_batch_view.cpp)
// share: (N, ...) array arguments and outputs checked with errors naming the argument, world
// indices, and the view itself.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "batch/world_batch.hpp"
#include "bindings/articulated_args.hpp"
#include "bindings/convert.hpp"
#include "bindings/handles.hpp"

namespace torsion::bindings::batch_args {

using ssize = py::ssize_t;

std::string shape_text(const std::vector<ssize>& shape);
std::string shape_text(const py::array& a);

// `out` for a result of this shape: a fresh array when out is None, otherwise out itself after
// checking it is a writeable, C-contiguous float64 ndarray of exactly that shape
py::array_t<double> output_array(const py::object& out, const std::vector<ssize>& shape,
                                 const char* name);

// An input of shape (N, *tail), or of shape tail (the same values for every world) when
// `broadcast`: row(i) points at world i's values.
struct Rows {
  py::array_t<double, py::array::c_style | py::array::forcecast> array;
  ssize stride = 0;  // doubles from one world's row to the next (0: broadcast)
  ssize width = 0;   // doubles per row
  const double* row(std::size_t i) const { return array.data() + stride * static_cast<ssize>(i); }
};

Rows input_rows(py::handle obj, const char* name, ssize n, const std::vector<ssize>& tail,
                bool broadcast);

// every value of the rows finite; ValueError naming the argument and the world otherwise
void check_finite_rows(const Rows& r, std::size_t n, const char* name);

// indices of worlds: a 1-D array-like of ints, each in [0, n) (negative ones count from the end);
// IndexError naming `name` and the position otherwise
std::vector<std::int64_t> world_indices(py::handle obj, std::size_t n, const char* name);

}  // namespace torsion::bindings::batch_args

namespace torsion::bindings {

struct ArticulatedView {
  std::shared_ptr<WorldBatch> batch;
  std::string name;
  ObjectId id = 0;
  int nq = 0, nv = 0;
  std::size_t frames = 0, bodies = 0;
  std::shared_ptr<const ArticulatedModel> model;  // world 0's (names of frames and bodies)

  std::size_t size() const { return batch->size(); }

  // the system in every world, checked to be the one the view was made for
  std::vector<ArticulatedSystem*> systems() const {
    std::vector<ArticulatedSystem*> out(batch->size());
    for (std::size_t i = 0; i < out.size(); ++i) {
      Object* o = batch->world(i).find_object(id);
      if (o == nullptr || o->type() != ObjectType::kArticulatedSystem)
        throw RemovedObjectError("world " + std::to_string(i) + ": the articulated system '" +
                                 name + "' (id " + std::to_string(id) +
                                 ") has been removed; make a new view");
      auto* a = static_cast<ArticulatedSystem*>(o);
      if (a->gc_dim() != nq || a->dof() != nv)
        throw std::logic_error("world " + std::to_string(i) + ": object id " + std::to_string(id) +
                               " is no longer the robot this view was made for");
      out[i] = a;
    }
    return out;
  }

  std::vector<int> frame_indices(py::handle frames_arg) const {
    std::vector<int> out;
    if (py::isinstance<py::str>(frames_arg) || !py::hasattr(frames_arg, "__iter__"))
      throw py::value_error("frames must be a sequence of frame names (str) or indices (int)");
    for (py::handle f : frames_arg) out.push_back(frame_index(*model, f));
    return out;
  }

  std::vector<int> body_indices(py::handle bodies_arg) const {
    std::vector<int> out;
    if (py::isinstance<py::str>(bodies_arg) || !py::hasattr(bodies_arg, "__iter__"))
      throw py::value_error("bodies must be a sequence of body names (str) or indices (int)");
    for (py::handle b : bodies_arg) {
      if (py::isinstance<py::str>(b)) {
        const int i = model->find_body(b.cast<std::string>());
        if (i < 0)
          throw py::value_error("bodies: unknown body name '" + b.cast<std::string>() + "'");
        out.push_back(i);
      } else if (const auto i = py_convert::to_index(b, model->bodies.size(), "body")) {
        out.push_back(static_cast<int>(*i));
      } else {
        throw py::value_error("bodies must hold body names (str) or indices (int)");
      }
    }
    return out;
  }
};

// the view of the robot named `name` in every world of `batch` (ValueError if a world has none or
// another robot under that name)
ArticulatedView make_view(const std::shared_ptr<WorldBatch>& batch, const std::string& name);

void bind_articulated_view(py::module_& m);  // bind_batch_view.cpp

}  // namespace torsion::bindings
