#pragma once

// The snippets live in the engine library so that `aile connect` prints the same ones.
#include "clients/ClientSnippets.h"

namespace Aile::Ui {
using ClientSnippets = Clients::ClientSnippets;
}
