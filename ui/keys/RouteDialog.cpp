#include "RouteDialog.h"

#include "RouteTargetsTable.h"
#include "ReplayDialog.h"
#include "common/Format.h"
#include "common/ManagementClient.h"
#include "api/values/JsonFields.h"

#include <QtCore/QUrlQuery>
#include <QtWidgets/QCheckBox>
#include <QtWidgets/QComboBox>
#include <QtWidgets/QDoubleSpinBox>
#include <QtWidgets/QFormLayout>
#include <QtWidgets/QGroupBox>
#include <QtWidgets/QHBoxLayout>
#include <QtWidgets/QInputDialog>
#include <QtWidgets/QLabel>
#include <QtWidgets/QLineEdit>
#include <QtWidgets/QPushButton>
#include <QtWidgets/QSpinBox>
#include <QtWidgets/QVBoxLayout>

namespace Aile::Ui {

namespace {

// The route template's list of targets (GET /keys/route-template).
const QLatin1String Targets("targets");

// The API's ranges: at most 10 targets, a route name of at most 64 characters, a first-token
// limit of 1 to 60 seconds on a route of two targets or more.
constexpr int MaxTargets = 10;
constexpr int MaxNameLength = 64;
constexpr int MaxTtftSeconds = 60;

QPushButton *button(const QString &text, const QString &objectName, const QString &accessibleName, QWidget *parent)
{
    auto *b = new QPushButton(text, parent);
    b->setObjectName(objectName);
    b->setAccessibleName(accessibleName);
    return b;
}

/// "a (why); b (why)" of the template's ambiguous or skipped entries.
QString reasons(const QJsonArray &entries)
{
    QStringList out;
    for (const QJsonValue &v : entries) {
        const QJsonObject e = v.toObject();
        out << QStringLiteral("%1 (%2)").arg(e.value(QLatin1String("model")).toString(), e.value(QLatin1String("reason")).toString());
    }
    return out.join(QStringLiteral("; "));
}

} // namespace

RouteDialog::RouteDialog(ManagementClient *client, QWidget *parent)
    : KeyEditDialog(client, QStringLiteral("route"), tr("Save the route"), tr("Why the engine refused the route"), parent),
      m_name(new QLineEdit(this)), m_targets(new RouteTargetsTable(this)),
      m_add(button(tr("&Add target"), QStringLiteral("addTarget"), tr("Add a target"), this)),
      m_remove(button(tr("&Remove target"), QStringLiteral("removeTarget"), tr("Remove the selected target"), this)),
      m_up(button(tr("Move &up"), QStringLiteral("moveTargetUp"), tr("Move the selected target up"), this)),
      m_down(button(tr("Move do&wn"), QStringLiteral("moveTargetDown"), tr("Move the selected target down"), this)),
      m_across(button(tr("Create a route across &providers…"), QStringLiteral("routeAcrossProviders"),
                      tr("Fill the targets with every provider that lists a model"), this)),
      m_templateNote(new QLabel(this)), m_order(new QComboBox(this)), m_prefer(new QComboBox(this)), m_ttft(new QSpinBox(this)),
      m_phaseLimits(new QCheckBox(tr("Time &limits per phase: 30 s to a stream's first byte, 60 s between events, "
                                     "180 s for an answer not streamed (the last attempt past one answers 524)"),
                                  this)),
      m_budget(new QDoubleSpinBox(this)), m_spent(new QLabel(this))
{
    setObjectName(QStringLiteral("routeDialog"));
    setWindowTitle(tr("Route"));
    setAccessibleName(tr("Route"));

    m_name->setObjectName(QStringLiteral("routeName"));
    m_name->setAccessibleName(tr("Route name"));
    m_name->setMaxLength(MaxNameLength);
    m_name->setPlaceholderText(tr("e.g. coding: a tool sends it as the model"));

    m_targets->setObjectName(QStringLiteral("routeTargets"));
    m_targets->setAccessibleName(tr("Targets, in the order they are tried"));
    m_templateNote->setObjectName(QStringLiteral("routeTemplateNote"));
    m_templateNote->setWordWrap(true);
    m_templateNote->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    m_templateNote->hide();
    connect(m_add, &QPushButton::clicked, this, [this] { m_targets->addTarget(); });
    connect(m_remove, &QPushButton::clicked, m_targets, &RouteTargetsTable::removeSelected);
    connect(m_up, &QPushButton::clicked, this, [this] { m_targets->moveSelected(-1); });
    connect(m_down, &QPushButton::clicked, this, [this] { m_targets->moveSelected(+1); });
    connect(m_across, &QPushButton::clicked, this, &RouteDialog::askAcrossProviders);
    connect(m_targets, &RouteTargetsTable::targetsChanged, this, &RouteDialog::updateButtons);
    connect(m_targets, &QTableWidget::itemSelectionChanged, this, &RouteDialog::updateButtons);

    m_order->setObjectName(QStringLiteral("routeOrder"));
    m_order->setAccessibleName(tr("Order of the targets"));
    m_order->addItem(tr("In order"), int(Order::InOrder));
    m_order->setItemData(0, tr("The first target, then the next when one fails."), Qt::ToolTipRole);
    m_order->addItem(tr("Cheapest"), int(Order::Cheapest));
    m_order->setItemData(1, tr("The target whose cheapest sharer quotes least for the request goes first."), Qt::ToolTipRole);
    m_order->addItem(tr("Round-robin"), int(Order::RoundRobin));
    m_order->setItemData(2, tr("Each request starts at the next target in turn."), Qt::ToolTipRole);
    m_order->setToolTip(tr("Whatever the order, the next target is tried only when one fails."));
    m_prefer->setObjectName(QStringLiteral("routePrefer"));
    m_prefer->setAccessibleName(tr("Prefer"));
    m_prefer->addItem(tr("Follow key"), QString());
    m_prefer->addItem(tr("Speed"), QStringLiteral("speed"));
    m_prefer->addItem(tr("Price"), QStringLiteral("price"));
    m_prefer->setToolTip(tr("How each target orders its sharers: fastest first or cheapest first. "
                            "Follow key does what the key's Routing says."));
    m_ttft->setObjectName(QStringLiteral("routeTtft"));
    m_ttft->setAccessibleName(tr("First-token limit"));
    m_ttft->setRange(0, MaxTtftSeconds);
    m_ttft->setSpecialValueText(tr("off"));
    m_ttft->setSuffix(tr(" s"));
    m_phaseLimits->setObjectName(QStringLiteral("routePhaseLimits"));
    m_phaseLimits->setAccessibleName(tr("Time limits per phase"));
    m_budget->setObjectName(QStringLiteral("routeBudget"));
    m_budget->setAccessibleName(tr("Daily budget of the route"));
    m_budget->setDecimals(2);
    m_budget->setRange(0, 1000000);
    m_budget->setPrefix(QStringLiteral("$"));
    m_budget->setSpecialValueText(tr("no budget"));
    m_budget->setToolTip(tr("Once the route has spent it today (UTC), its requests are refused with a 402 until 00:00 UTC."));
    m_spent->setObjectName(QStringLiteral("routeSpent"));
    for (QAbstractSpinBox *box : {static_cast<QAbstractSpinBox *>(m_ttft), static_cast<QAbstractSpinBox *>(m_budget)})
        if (auto *editor = box->findChild<QLineEdit *>())
            editor->setAccessibleName(box->accessibleName());

    auto *targets = new QGroupBox(tr("Targets, tried in order"), this);
    auto *targetRow = new QHBoxLayout;
    for (QPushButton *b : {m_add, m_remove, m_up, m_down})
        targetRow->addWidget(b);
    targetRow->addStretch(1);
    targetRow->addWidget(m_across);
    auto *targetLayout = new QVBoxLayout(targets);
    targetLayout->addWidget(m_targets, 1);
    targetLayout->addLayout(targetRow);
    targetLayout->addWidget(m_templateNote);

    auto *options = new QGroupBox(tr("Order and limits"), this);
    auto *form = new QFormLayout(options);
    form->addRow(tr("&Order:"), m_order);
    form->addRow(tr("Pr&efer:"), m_prefer);
    form->addRow(tr("&First-token limit:"), m_ttft);
    form->addRow(m_phaseLimits);
    form->addRow(tr("Daily &budget:"), m_budget);
    form->addRow(tr("Spent today:"), m_spent);

    auto *nameForm = new QFormLayout;
    auto *nameLabel = new QLabel(tr("&Name:"), this);
    nameLabel->setBuddy(m_name);
    nameForm->addRow(nameLabel, m_name);
    auto *fields = new QVBoxLayout;
    fields->addLayout(nameForm);
    fields->addWidget(targets, 1);
    fields->addWidget(options);
    // What the last days would have done with the route as it stands in the fields, before Save.
    auto *replay =
        button(tr("Replay histor&y…"), QStringLiteral("replayRouteHistory"), tr("Replay the key's recorded requests with this route, unsaved"), this);
    connect(replay, &QPushButton::clicked, this, [this] {
        Api::ReplayAsk ask;
        ask.route = route();
        auto *dialog = new ReplayDialog(this->client(), keyId(), keyName(), ask, this);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        dialog->show();
        dialog->run();
    });
    fields->addWidget(replay, 0, Qt::AlignLeft);
    setFields(fields);

    setRoute({});
    resize(940, 640);
}

void RouteDialog::setSharers(const QList<Api::SharerStatus> &sharers)
{
    m_sharers = sharers;
    updateModelChoices();
}

void RouteDialog::askCatalog()
{
    // The catalogue's models, for the providers one of whose sharers offers its whole catalogue.
    client()->catalog(this, [this](const Reply<QJsonObject> &reply) {
        if (!reply.ok())
            return; // the sharers' own models are still offered, and any id can be typed
        m_catalogModels = reply.value.value(QLatin1String("models")).toArray();
        updateModelChoices();
    });
}

void RouteDialog::updateModelChoices()
{
    QStringList models, wholeCatalogue;
    for (const Api::SharerStatus &s : std::as_const(m_sharers)) {
        const QString provider = s.config.provider;
        if (s.config.models.isEmpty())
            wholeCatalogue << provider;
        for (const QString &m : s.config.models)
            models << QString(provider + QLatin1Char('/') + m);
    }
    for (const QJsonValue &v : std::as_const(m_catalogModels)) {
        const QJsonObject m = v.toObject();
        const QString provider = m.value(QLatin1String("provider")).toString();
        if (wholeCatalogue.contains(provider))
            models << QString(provider + QLatin1Char('/') + m.value(QLatin1String("id")).toString());
    }
    models.removeDuplicates();
    models.sort();
    m_targets->setChoices(models, m_sharers);
}

void RouteDialog::updateButtons()
{
    const int row = m_targets->selectedRow();
    const int count = m_targets->rowCount();
    m_add->setEnabled(count < MaxTargets);
    m_remove->setEnabled(row >= 0);
    m_up->setEnabled(row > 0);
    m_down->setEnabled(row >= 0 && row < count - 1);
    updateFirstTokenLimit();
}

void RouteDialog::updateFirstTokenLimit()
{
    const bool possible = m_targets->rowCount() >= 2;
    m_ttft->setEnabled(possible);
    m_ttft->setToolTip(possible ? tr("When a target has produced no output within it, across every sharer tried for it, the route "
                                     "moves to the next target. Nothing is charged for the dropped attempt. The last target is never "
                                     "cut, and only streamed requests on your balance are limited.")
                                : tr("A first-token limit needs two targets or more: the last target tried is never cut."));
}

Api::RouteValue RouteDialog::route() const
{
    Api::RouteValue r;
    r.name = m_name->text().trimmed();
    switch (Order(m_order->currentData().toInt())) {
    case Order::Cheapest: r.order = QStringLiteral("cheapest"); break;
    case Order::RoundRobin: r.order = QStringLiteral("round-robin"); break;
    case Order::InOrder: break; // stored as nothing
    }
    r.prefer = m_prefer->currentData().toString();
    if (m_ttft->isEnabled() && m_ttft->value() > 0) {
        // A limit set through the API in milliseconds is kept while the seconds shown are unchanged.
        const int loaded = m_loaded.ttftMs.value_or(0);
        r.ttftMs = qRound(loaded / 1000.0) == m_ttft->value() ? loaded : m_ttft->value() * 1000;
    }
    if (m_phaseLimits->isChecked())
        r.phaseLimits = true;
    if (m_budget->value() > 0)
        r.budgetUsdPerDay = m_budget->value();
    r.targets = m_targets->targets();
    return r;
}

void RouteDialog::setRoute(const Api::RouteValue &r)
{
    m_loaded = r;
    m_name->setText(r.name);
    const Order o = r.order == QLatin1String("cheapest")      ? Order::Cheapest
                    : r.order == QLatin1String("round-robin") ? Order::RoundRobin
                                                              : Order::InOrder;
    m_order->setCurrentIndex(m_order->findData(int(o)));
    m_prefer->setCurrentIndex(qMax(0, m_prefer->findData(r.prefer)));
    m_ttft->setValue(qRound(r.ttftMs.value_or(0) / 1000.0));
    m_phaseLimits->setChecked(r.phaseLimits.value_or(false));
    m_budget->setValue(r.budgetUsdPerDay.value_or(0));
    m_targets->setTargets(r.targets);
    if (m_targets->rowCount() > 0)
        m_targets->selectRow(0);
    m_templateNote->hide();
    showError(QString());
    updateButtons();
}

QString RouteDialog::templateNote() const
{
    return m_templateNote->text();
}

void RouteDialog::load(const QString &keyId, const QString &routeName)
{
    m_originalName = routeName;
    askCatalog();
    readKey(keyId, [this](const Api::KeyInfo &key) {
        m_routes = key.routes;
        std::optional<Api::RouteValue> route;
        std::optional<Api::RouteSpend> spend;
        for (const Api::RouteValue &r : std::as_const(m_routes))
            if (r.name == m_originalName && !m_originalName.isEmpty())
                route = r;
        for (const Api::RouteSpend &s : key.routeSpend)
            if (s.name == m_originalName && !m_originalName.isEmpty())
                spend = s;
        if (!route)
            m_originalName.clear(); // gone meanwhile (or new): Save appends it
        setWindowTitle(m_originalName.isEmpty() ? tr("New route on %1").arg(keyName()) : tr("Route %1 of %2").arg(m_originalName, keyName()));
        titleLabel()->setText(tr("A tool uses the route by sending its name as the model, with key %1. Each target is tried in turn "
                                 "when the one before fails; the key's own routing binds every target.")
                                  .arg(keyName()));
        setRoute(route.value_or(Api::RouteValue()));
        m_targets->setSpend(spend ? spend->targets : QList<Api::RouteSpend::Target>());
        const double spent = spend ? spend->spentUsd : 0;
        const double budget = spend ? spend->budgetUsdPerDay.value_or(0) : 0;
        m_spent->setText(!spend       ? tr("nothing yet (not saved)")
                         : budget > 0 ? tr("%1 of %2 (UTC day)").arg(Format::money(spent), Format::money(budget))
                                      : tr("%1 (UTC day)").arg(Format::money(spent)));
    });
}

void RouteDialog::save()
{
    const Api::RouteValue r = route();
    QList<Api::RouteValue> routes = m_routes;
    bool replaced = false;
    for (Api::RouteValue &v : routes) {
        if (!m_originalName.isEmpty() && v.name == m_originalName) {
            v = r;
            replaced = true;
            break;
        }
    }
    if (!replaced)
        routes.append(r);
    Api::KeyChanges changes;
    changes.routes = routes;
    putKey(changes, [this, name = r.name](const Api::KeyInfo &key) {
        m_routes = key.routes;
        m_originalName = name;
        Q_EMIT saved(keyId(), name);
    });
}

void RouteDialog::askAcrossProviders()
{
    auto *ask = new QInputDialog(this);
    ask->setObjectName(QStringLiteral("routeTemplateAsk"));
    ask->setAttribute(Qt::WA_DeleteOnClose);
    ask->setWindowTitle(tr("Create a route across providers"));
    ask->setLabelText(tr("Model id, without a provider (e.g. gpt-5.5 or claude-sonnet-5). Every provider that lists it "
                         "becomes a target, cheapest first; the targets shown now are replaced."));
    ask->setTextValue(m_name->text().isEmpty() ? QString() : m_name->text());
    connect(ask, &QInputDialog::textValueSelected, this, &RouteDialog::fillAcrossProviders);
    ask->open();
}

void RouteDialog::fillAcrossProviders(const QString &model)
{
    const QString bare = model.trimmed();
    if (bare.isEmpty())
        return;
    m_across->setEnabled(false);
    client()->routeTemplate(bare, keyId(), this, [this, bare](const Reply<QJsonObject> &reply) {
        m_across->setEnabled(true);
        if (!reply.ok()) {
            showError(reply.error);
            Q_EMIT templateFilled();
            return;
        }
        showTemplate(bare, reply.value);
    });
}

void RouteDialog::showTemplate(const QString &model, const QJsonObject &answer)
{
    showError(QString());
    const QJsonArray targets = answer.value(Targets).toArray();
    QStringList lines;
    if (targets.isEmpty()) {
        lines << tr("No provider lists %1 under that name; the targets were left as they were.").arg(model);
    } else {
        m_targets->setTargets(Api::Json::listOf<Api::RouteTargetValue>(targets));
        m_targets->selectRow(0);
        if (m_name->text().trimmed().isEmpty())
            m_name->setText(model);
        lines << tr("%n target(s) from the providers that list %1, cheapest first. Nothing is saved until you press Save.", nullptr,
                    int(targets.size()))
                     .arg(model);
    }
    if (const QJsonArray ambiguous = answer.value(QLatin1String("ambiguous")).toArray(); !ambiguous.isEmpty())
        lines << tr("Similar names, never added: %1.").arg(reasons(ambiguous));
    if (const QJsonArray skipped = answer.value(QLatin1String("skipped")).toArray(); !skipped.isEmpty())
        lines << tr("Left out: %1.").arg(reasons(skipped));
    m_templateNote->setText(lines.join(QLatin1Char('\n')));
    m_templateNote->show();
    updateButtons();
    Q_EMIT templateFilled();
}

} // namespace Aile::Ui
