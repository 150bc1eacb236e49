#pragma once

#include "store/TraceRecord.h"

#include <QtCore/QCoreApplication>
#include <QtCore/QString>

namespace Aile::Ui {

/// What a trace's attempt row suggests doing, from its outcome (docs/gui.md, "From a trace to a
/// fix"): a cooling sharer's cooldown cleared, a dead key (401/403) marked fixed and probed, a
/// failed model re-tested, or the key's Routing dialog opened on the lever that refused it.
struct AttemptAction
{
    enum class Kind { None, ClearCooldown, MarkFixed, Retest, OpenRouting };
    Kind kind = Kind::None;
    QString label; // the button's text
    QString lever; // OpenRouting: the Routing dialog's field (its objectName); empty when the request's own header refused it
    /// The management API's name of it (POST /traces/{id}/actions): clear-cooldown, mark-fixed, retest.
    QString apiAction() const;
};

class AttemptActions
{
    Q_DECLARE_TR_FUNCTIONS(Aile::Ui::AttemptActions)
public:
    static AttemptAction suggest(const Store::AttemptRecord &attempt);
    /// "Why this sharer?": the decision in words, from what the trace recorded: the filters that
    /// removed others, the attempts before it, the pin and its evidence, the key's speed order, and
    /// the served row's quote and plan (Routing::planFacts: tier, rank, tie group and draw).
    static QString whyThisSharer(const Store::TraceRecord &trace);
};

} // namespace Aile::Ui
