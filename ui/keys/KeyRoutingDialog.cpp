#include "KeyRoutingDialog.h"
#include "ReplayDialog.h"

#include "common/ManagementClient.h"

#include <QtCore/QJsonDocument>
#include <QtCore/QRegularExpression>
#include <QtWidgets/QCheckBox>
#include <QtWidgets/QComboBox>
#include <QtWidgets/QDoubleSpinBox>
#include <QtWidgets/QFormLayout>
#include <QtWidgets/QGridLayout>
#include <QtWidgets/QGroupBox>
#include <QtWidgets/QHBoxLayout>
#include <QtWidgets/QLabel>
#include <QtWidgets/QLineEdit>
#include <QtWidgets/QListWidget>
#include <QtWidgets/QPushButton>
#include <QtWidgets/QSpinBox>
#include <QtWidgets/QVBoxLayout>

namespace Aile::Ui {

namespace {

// The settings the fields decide (docs/keys.md): routing() sets them from the fields alone, so a
// value of another type kept in KeyRoutingValue::other goes too. The rest are kept as loaded.
const QLatin1String Controlled[] = {
    QLatin1String("maxPricePercent"),     QLatin1String("maxPrice"),    QLatin1String("minPricePercent"),  QLatin1String("maxCostUsd"),
    QLatin1String("spendLimitUsdPerDay"), QLatin1String("provider"),    QLatin1String("excludeProviders"), QLatin1String("dataCollection"),
    QLatin1String("allowSelfHosted"),     QLatin1String("onlySharers"), QLatin1String("neverSharers"),     QLatin1String("prefer"),
    QLatin1String("demoteFailing"),       QLatin1String("sticky"),      QLatin1String("verifiedOnly"),     QLatin1String("sharer"),
    QLatin1String("bareModelAnyProvider")};

// The API's ranges: a cost cap above 0 and at most 10,000 dollars with at most 6 decimals.
constexpr double MaxCostLimit = 10000;
constexpr int MaxListSize = 50;

QDoubleSpinBox *dollars(QWidget *parent, const QString &objectName, int decimals, double maximum)
{
    auto *box = new QDoubleSpinBox(parent);
    box->setObjectName(objectName);
    box->setDecimals(decimals);
    box->setRange(0, maximum);
    box->setPrefix(QStringLiteral("$"));
    box->setSingleStep(0.1);
    return box;
}

QCheckBox *check(QWidget *parent, const QString &objectName, const QString &text)
{
    auto *box = new QCheckBox(text, parent);
    box->setObjectName(objectName);
    box->setAccessibleName(QString(text).remove(QLatin1Char('&')));
    return box;
}

QListWidget *checkList(QWidget *parent, const QString &objectName, const QString &accessibleName)
{
    auto *list = new QListWidget(parent);
    list->setObjectName(objectName);
    list->setAccessibleName(accessibleName);
    list->setMinimumHeight(90);
    return list;
}

void addItem(QListWidget *list, const QString &text, const QString &data, bool on)
{
    auto *item = new QListWidgetItem(text, list);
    item->setData(Qt::UserRole, data);
    item->setToolTip(data);
    item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable | Qt::ItemIsSelectable);
    item->setCheckState(on ? Qt::Checked : Qt::Unchecked);
}

} // namespace

KeyRoutingDialog::KeyRoutingDialog(ManagementClient *client, QWidget *parent)
    : KeyEditDialog(client, QStringLiteral("routing"), tr("Save the routing"), tr("Why the engine refused the settings"), parent),
      m_ceilingMode(new QComboBox(this)), m_ceiling(new QDoubleSpinBox(this)), m_floor(new QDoubleSpinBox(this)),
      m_maxCost(dollars(this, QStringLiteral("maxCost"), 6, MaxCostLimit)), m_spendLimit(dollars(this, QStringLiteral("spendLimit"), 2, 1000000)),
      m_provider(new QComboBox(this)), m_neverProviders(checkList(this, QStringLiteral("neverProviders"), tr("Never these providers"))),
      m_noTraining(check(this, QStringLiteral("noTraining"), tr("Only providers that do not &train on prompts"))),
      m_selfHosted(check(this, QStringLiteral("allowSelfHosted"), tr("Allow self-&hosted models"))),
      m_onlySharers(checkList(this, QStringLiteral("onlySharers"), tr("Only these sharers"))),
      m_neverSharers(checkList(this, QStringLiteral("neverSharers"), tr("Never these sharers"))), m_handle(new QLineEdit(this)),
      m_speed(check(this, QStringLiteral("preferSpeed"), tr("Prefer &speed over price"))),
      m_demote(check(this, QStringLiteral("demoteFailing"), tr("Move sharers that keep &failing to the back"))),
      m_phaseLimits(
          check(this, QStringLiteral("phaseLimits"),
                tr("Time limits per phase: 30 s to a stream's first byte, 60 s between events, 180 s for an answer not streamed (&524 past them)"))),
      m_sticky(check(this, QStringLiteral("sticky"), tr("&Keep a conversation on one sharer"))),
      m_verified(check(this, QStringLiteral("verifiedOnly"), tr("Only sharers that passed a test of the model (&verified)"))),
      m_pinSharer(new QComboBox(this)), m_bareAny(check(this, QStringLiteral("bareModelAnyProvider"), tr("Let a bare model id use any provider")))
{
    setObjectName(QStringLiteral("keyRoutingDialog"));
    setWindowTitle(tr("Key routing"));
    setAccessibleName(tr("Key routing"));

    // Price and cost.
    m_ceilingMode->setObjectName(QStringLiteral("ceilingMode"));
    m_ceilingMode->setAccessibleName(tr("Price ceiling"));
    // The choice's own text can be long (French): the two columns stay balanced.
    m_ceilingMode->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_ceilingMode->setMinimumContentsLength(14);
    m_ceilingMode->addItem(tr("No ceiling"), int(Ceiling::None));
    m_ceilingMode->addItem(tr("Percent of the model's list price"), int(Ceiling::PercentOfList));
    m_ceilingMode->addItem(tr("Dollars per million tokens"), int(Ceiling::PerMillion));
    m_ceiling->setObjectName(QStringLiteral("ceiling"));
    m_ceiling->setAccessibleName(tr("Price ceiling value"));
    m_floor->setObjectName(QStringLiteral("floor"));
    m_floor->setAccessibleName(tr("Price floor"));
    m_floor->setDecimals(2);
    m_floor->setRange(0, 100);
    m_floor->setSuffix(tr("% of list"));
    m_floor->setSpecialValueText(tr("no floor"));
    m_floor->setToolTip(tr("A sharer priced under this share of the model's list price is skipped (the key's max discount)."));
    m_maxCost->setAccessibleName(tr("Max cost per request"));
    m_maxCost->setSpecialValueText(tr("no cap"));
    m_maxCost->setToolTip(tr("The most one request may be charged. A sharer quoting above it is passed over; "
                             "when all do, the request is refused with a 402 and nothing is charged."));
    m_spendLimit->setAccessibleName(tr("Spend limit per day"));
    m_spendLimit->setSpecialValueText(tr("no limit"));
    m_spendLimit->setToolTip(tr("Over it the key's requests are refused (403 budget_exceeded) until 00:00 UTC."));
    auto *ceilingRow = new QHBoxLayout;
    ceilingRow->addWidget(m_ceilingMode, 1);
    ceilingRow->addWidget(m_ceiling);
    auto *price = new QGroupBox(tr("Price and cost"), this);
    auto *priceForm = new QFormLayout(price);
    auto *ceilingLabel = new QLabel(tr("Price &ceiling:"), price);
    ceilingLabel->setBuddy(m_ceilingMode);
    priceForm->addRow(ceilingLabel, ceilingRow);
    priceForm->addRow(tr("Price f&loor:"), m_floor);
    priceForm->addRow(tr("Max cost per &request:"), m_maxCost);
    priceForm->addRow(tr("Spend &limit per day:"), m_spendLimit);

    // Providers.
    m_provider->setObjectName(QStringLiteral("providerPin"));
    m_provider->setAccessibleName(tr("Only this provider"));
    m_provider->setEditable(true);
    m_provider->setInsertPolicy(QComboBox::NoInsert);
    m_provider->lineEdit()->setPlaceholderText(tr("any provider"));
    m_provider->lineEdit()->setAccessibleName(tr("Provider id"));
    m_selfHosted->setChecked(true);
    auto *providers = new QGroupBox(tr("Providers"), this);
    auto *providerForm = new QFormLayout(providers);
    providerForm->addRow(tr("Only this &provider:"), m_provider);
    auto *neverProvidersLabel = new QLabel(tr("&Never these providers:"), providers);
    neverProvidersLabel->setBuddy(m_neverProviders);
    providerForm->addRow(neverProvidersLabel, m_neverProviders);
    providerForm->addRow(m_noTraining);
    providerForm->addRow(m_selfHosted);

    // Sharers.
    m_handle->setObjectName(QStringLiteral("sharerHandle"));
    m_handle->setAccessibleName(tr("Sharer handle to add"));
    m_handle->setPlaceholderText(tr("L + 16 hex digits"));
    auto *allowHandle = new QPushButton(tr("A&llow"), this);
    allowHandle->setObjectName(QStringLiteral("allowHandle"));
    allowHandle->setAccessibleName(tr("Add the handle to Only these sharers"));
    auto *blockHandle = new QPushButton(tr("&Block"), this);
    blockHandle->setObjectName(QStringLiteral("blockHandle"));
    blockHandle->setAccessibleName(tr("Add the handle to Never these sharers"));
    connect(allowHandle, &QPushButton::clicked, this, [this] { addHandle(m_onlySharers); });
    connect(blockHandle, &QPushButton::clicked, this, [this] { addHandle(m_neverSharers); });
    auto *sharers = new QGroupBox(tr("Sharers"), this);
    auto *sharerGrid = new QGridLayout(sharers);
    auto *onlyLabel = new QLabel(tr("&Only these sharers:"), sharers);
    onlyLabel->setBuddy(m_onlySharers);
    auto *neverLabel = new QLabel(tr("Ne&ver these sharers:"), sharers);
    neverLabel->setBuddy(m_neverSharers);
    sharerGrid->addWidget(onlyLabel, 0, 0);
    sharerGrid->addWidget(neverLabel, 0, 1);
    sharerGrid->addWidget(m_onlySharers, 1, 0);
    sharerGrid->addWidget(m_neverSharers, 1, 1);
    auto *handleRow = new QHBoxLayout;
    auto *handleLabel = new QLabel(tr("Han&dle:"), sharers);
    handleLabel->setBuddy(m_handle);
    handleRow->addWidget(handleLabel);
    handleRow->addWidget(m_handle, 1);
    handleRow->addWidget(allowHandle);
    handleRow->addWidget(blockHandle);
    sharerGrid->addLayout(handleRow, 2, 0, 1, 2);
    auto *sharerNote = new QLabel(tr("None ticked under Only these sharers: every sharer may serve. Up to 50 in each list; "
                                     "price order is unchanged among those left."),
                                  sharers);
    sharerNote->setWordWrap(true);
    sharerGrid->addWidget(sharerNote, 3, 0, 1, 2);

    // Behaviour.
    m_sticky->setChecked(true);
    auto *behaviour = new QGroupBox(tr("Order"), this);
    auto *behaviourLayout = new QVBoxLayout(behaviour);
    behaviourLayout->addWidget(m_speed);
    behaviourLayout->addWidget(m_demote);
    behaviourLayout->addWidget(m_phaseLimits);
    behaviourLayout->addWidget(m_sticky);
    behaviourLayout->addWidget(m_verified);

    // Advanced.
    m_pinSharer->setObjectName(QStringLiteral("pinSharer"));
    m_pinSharer->setAccessibleName(tr("Pin to one sharer"));
    auto *advanced = new QGroupBox(tr("Advanced"), this);
    auto *advancedForm = new QFormLayout(advanced);
    advancedForm->addRow(tr("One s&harer only:"), m_pinSharer);
    advancedForm->addRow(m_bareAny);
    m_bareAny->setToolTip(tr("An older setting: write auto/<model> to let any provider serve. Shown only while it is on."));

    m_neverProviders->setMaximumHeight(130);
    auto *left = new QVBoxLayout;
    left->addWidget(price);
    left->addWidget(providers);
    left->addWidget(behaviour);
    left->addStretch(1);
    auto *right = new QVBoxLayout;
    right->addWidget(sharers, 1);
    right->addWidget(advanced);
    // What the last days would have done with these settings, before Save.
    auto *replay = new QPushButton(tr("Replay histor&y…"), this);
    replay->setObjectName(QStringLiteral("replayRoutingHistory"));
    replay->setAccessibleName(tr("Replay the key's recorded requests with these settings, unsaved"));
    connect(replay, &QPushButton::clicked, this, [this] {
        Api::ReplayAsk ask;
        ask.routing = routing();
        auto *dialog = new ReplayDialog(this->client(), keyId(), keyName(), ask, this);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        dialog->show();
        dialog->run();
    });
    right->addWidget(replay, 0, Qt::AlignLeft);
    auto *columns = new QHBoxLayout;
    columns->addLayout(left, 1);
    columns->addLayout(right, 1);
    setFields(columns);

    // A spin box's editor is what takes the focus: it carries the box's name for a screen reader.
    for (QDoubleSpinBox *box : {m_ceiling, m_floor, m_maxCost, m_spendLimit})
        if (auto *editor = box->findChild<QLineEdit *>())
            editor->setAccessibleName(box->accessibleName());

    connect(m_ceilingMode, &QComboBox::currentIndexChanged, this, &KeyRoutingDialog::updateCeiling);
    updateCeiling();
    setRouting({});
    resize(1000, 640);
}

void KeyRoutingDialog::updateCeiling()
{
    const auto mode = Ceiling(m_ceilingMode->currentData().toInt());
    m_ceiling->setEnabled(mode != Ceiling::None);
    if (mode == Ceiling::PerMillion) {
        m_ceiling->setDecimals(4);
        m_ceiling->setRange(0.0001, 10000);
        m_ceiling->setPrefix(QStringLiteral("$"));
        m_ceiling->setSuffix(tr(" /Mtok"));
    } else {
        m_ceiling->setDecimals(2);
        m_ceiling->setRange(0.01, 1000);
        m_ceiling->setPrefix(QString());
        m_ceiling->setSuffix(tr("% of list"));
    }
}

void KeyRoutingDialog::setSharers(const QList<Api::SharerStatus> &sharers)
{
    m_sharers = sharers;
    const Api::KeyRoutingValue current = routing();
    buildSharerLists(current);
    buildProviderList(current);
}

void KeyRoutingDialog::buildSharerLists(const Api::KeyRoutingValue &r)
{
    const QStringList only = r.onlySharers.value_or(QStringList());
    const QStringList never = r.neverSharers.value_or(QStringList());
    const QString pin = r.sharer.value_or(QString());
    m_onlySharers->clear();
    m_neverSharers->clear();
    m_pinSharer->clear();
    m_pinSharer->addItem(tr("(no pin)"), QString());
    QStringList known;
    for (const Api::SharerStatus &s : m_sharers) {
        const QString handle = s.config.handle;
        const QString text = tr("%1 (%2)").arg(s.config.name, s.config.provider);
        known << handle.toUpper();
        addItem(m_onlySharers, text, handle, only.contains(handle, Qt::CaseInsensitive));
        addItem(m_neverSharers, text, handle, never.contains(handle, Qt::CaseInsensitive));
        m_pinSharer->addItem(text, handle);
    }
    // Handles the key names that this engine does not know (a sharer removed, or one from the market).
    for (const QString &h : only)
        if (!known.contains(h.toUpper()))
            addItem(m_onlySharers, h, h, true);
    for (const QString &h : never)
        if (!known.contains(h.toUpper()))
            addItem(m_neverSharers, h, h, true);
    if (!pin.isEmpty() && !known.contains(pin.toUpper()))
        m_pinSharer->addItem(pin, pin);
    int pinIndex = 0;
    for (int i = 1; i < m_pinSharer->count(); ++i)
        if (m_pinSharer->itemData(i).toString().compare(pin, Qt::CaseInsensitive) == 0)
            pinIndex = i;
    m_pinSharer->setCurrentIndex(pinIndex);
}

void KeyRoutingDialog::buildProviderList(const Api::KeyRoutingValue &r)
{
    const QStringList never = r.excludeProviders.value_or(QStringList());
    QStringList providers;
    for (const Api::SharerStatus &s : m_sharers)
        providers << s.config.provider;
    providers << never;
    providers.removeAll(QString());
    providers.removeDuplicates();
    providers.sort();
    m_neverProviders->clear();
    for (const QString &p : providers)
        addItem(m_neverProviders, p, p, never.contains(p));
    const QString pinned = r.provider.value_or(QString());
    m_provider->clear();
    m_provider->addItem(QString());
    m_provider->addItems(providers);
    m_provider->setEditText(pinned);
}

void KeyRoutingDialog::addHandle(QListWidget *list)
{
    const QString handle = m_handle->text().trimmed();
    static const QRegularExpression valid(QStringLiteral("^[Ll][0-9A-Fa-f]{16}$"));
    if (!valid.match(handle).hasMatch()) {
        showError(tr("A sharer handle is L followed by 16 hex digits (L1a2b3c4d5e6f7a8b)."));
        return;
    }
    for (int i = 0; i < list->count(); ++i)
        if (list->item(i)->data(Qt::UserRole).toString().compare(handle, Qt::CaseInsensitive) == 0) {
            list->item(i)->setCheckState(Qt::Checked);
            m_handle->clear();
            return;
        }
    addItem(list, handle, handle, true);
    m_handle->clear();
}

QStringList KeyRoutingDialog::checked(const QListWidget *list)
{
    QStringList out;
    for (int i = 0; i < list->count(); ++i)
        if (list->item(i)->checkState() == Qt::Checked)
            out << list->item(i)->data(Qt::UserRole).toString();
    return out;
}

Api::KeyRoutingValue KeyRoutingDialog::routing() const
{
    Api::KeyRoutingValue r = m_loaded;
    for (const QLatin1String &name : Controlled)
        r.other.remove(name);
    r.maxPricePercent.reset();
    r.maxPrice.reset();
    switch (Ceiling(m_ceilingMode->currentData().toInt())) {
    case Ceiling::PercentOfList: r.maxPricePercent = m_ceiling->value(); break;
    case Ceiling::PerMillion: r.maxPrice = m_ceiling->value(); break;
    case Ceiling::None: break;
    }
    auto positive = [](const QDoubleSpinBox *box) { return box->value() > 0 ? std::optional<double>(box->value()) : std::nullopt; };
    auto nonEmpty = [](const QStringList &list) { return list.isEmpty() ? std::nullopt : std::optional<QStringList>(list); };
    auto onlyIf = [](bool on, auto value) { return on ? std::optional<decltype(value)>(value) : std::nullopt; };
    r.minPricePercent = positive(m_floor);
    r.maxCostUsd = positive(m_maxCost);
    r.spendLimitUsdPerDay = positive(m_spendLimit);
    const QString provider = m_provider->currentText().trimmed();
    r.provider = onlyIf(!provider.isEmpty(), provider);
    r.excludeProviders = nonEmpty(checked(m_neverProviders));
    r.dataCollection = onlyIf(m_noTraining->isChecked(), QStringLiteral("deny"));
    r.allowSelfHosted = onlyIf(!m_selfHosted->isChecked(), false);
    r.onlySharers = nonEmpty(checked(m_onlySharers));
    r.neverSharers = nonEmpty(checked(m_neverSharers));
    r.prefer = onlyIf(m_speed->isChecked(), QStringLiteral("speed"));
    r.demoteFailing = onlyIf(m_demote->isChecked(), true);
    r.phaseLimits = onlyIf(m_phaseLimits->isChecked(), true);
    r.sticky = onlyIf(!m_sticky->isChecked(), false);
    r.verifiedOnly = onlyIf(m_verified->isChecked(), true);
    const QString pin = m_pinSharer->currentData().toString();
    r.sharer = onlyIf(!pin.isEmpty(), pin);
    r.bareModelAnyProvider = onlyIf(m_bareAny->isChecked(), true);
    if (!m_bareAny->isChecked()) {
        r.bareModelProviders.reset();
        r.other.remove(QLatin1String("bareModelProviders"));
    }
    return r;
}

void KeyRoutingDialog::setRouting(const Api::KeyRoutingValue &r)
{
    m_loaded = r;
    if (r.maxPricePercent.value_or(0) > 0) {
        m_ceilingMode->setCurrentIndex(m_ceilingMode->findData(int(Ceiling::PercentOfList)));
        m_ceiling->setValue(*r.maxPricePercent);
    } else if (r.maxPrice.value_or(0) > 0) {
        m_ceilingMode->setCurrentIndex(m_ceilingMode->findData(int(Ceiling::PerMillion)));
        m_ceiling->setValue(*r.maxPrice);
    } else {
        m_ceilingMode->setCurrentIndex(m_ceilingMode->findData(int(Ceiling::None)));
    }
    m_floor->setValue(r.minPricePercent.value_or(0));
    m_maxCost->setValue(r.maxCostUsd.value_or(0));
    m_spendLimit->setValue(r.spendLimitUsdPerDay.value_or(0));
    m_noTraining->setChecked(r.dataCollection == QStringLiteral("deny"));
    m_selfHosted->setChecked(r.allowSelfHosted.value_or(true));
    m_speed->setChecked(r.prefer == QStringLiteral("speed"));
    m_demote->setChecked(r.demoteFailing.value_or(false));
    m_phaseLimits->setChecked(r.phaseLimits.value_or(false));
    m_sticky->setChecked(r.sticky.value_or(true));
    m_verified->setChecked(r.verifiedOnly.value_or(false));
    m_bareAny->setChecked(r.bareModelAnyProvider.value_or(false));
    // Offered only while it is on, so that it can be turned off; new keys do not get it.
    m_bareAny->setVisible(m_bareAny->isChecked());
    buildSharerLists(r);
    buildProviderList(r);
    showError(QString());
}

void KeyRoutingDialog::load(const QString &keyId)
{
    readKey(keyId, [this](const Api::KeyInfo &key) {
        setWindowTitle(tr("Routing of %1").arg(keyName()));
        titleLabel()->setText(tr("How requests made with key %1 (%2) choose a sharer. Headers on a request can only narrow these; "
                                 "the key's routes are bound by them too.")
                                  .arg(keyName(), key.prefix));
        setRouting(key.routing);
    });
}

void KeyRoutingDialog::save()
{
    const Api::KeyRoutingValue r = routing();
    for (const std::optional<QStringList> &list : {r.onlySharers, r.neverSharers, r.excludeProviders})
        if (list && list->size() > MaxListSize) {
            showError(tr("At most %1 entries in each list.").arg(MaxListSize));
            return;
        }
    Api::KeyChanges changes;
    changes.routing = r;
    putKey(changes, [this](const Api::KeyInfo &key) {
        m_loaded = key.routing;
        Q_EMIT saved(keyId(), keyName());
    });
}

bool KeyRoutingDialog::highlightLever(const QString &objectName)
{
    QWidget *field = objectName.isEmpty() ? nullptr : findChild<QWidget *>(objectName);
    if (!field)
        return false;
    m_highlighted = objectName;
    // The palette's highlight colour, so it reads in light and dark alike.
    field->setStyleSheet(QStringLiteral("#%1 { border: 2px solid palette(highlight); }").arg(objectName));
    field->setFocus(Qt::OtherFocusReason);
    return true;
}

} // namespace Aile::Ui
