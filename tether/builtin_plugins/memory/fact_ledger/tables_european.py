"""Cue tables for Spanish, French and German users: the same kinds as the English table.

A user who writes "Nada de Trainer de Hugging Face", "Prochaine étape : porter fir1" or "wir
nehmen ab jetzt Redis" states a rule, a next step and a change as an English or Chinese user
does; these tables let the ledger file them so (a rule under Constraints, a next step under
Next Steps, never ticked done). Their change cues are the unambiguous ones ("passe à", "ab
jetzt", "plus besoin", "olvídate de", "vergiss den"); "instead" and a bare "forget" are left
out: "au lieu de discuter" or "oublie pas" change nothing, and the readers that tell such uses
apart know English and Chinese only.

Goal cues ask for the work itself ("quiero que", "das ziel ist"), as the English ones do: a
bare "ich brauche" or "je veux" later in a session states no new goal. Phrases are lower
case; ``...`` stands for a gap of a few words.
"""

from __future__ import annotations

SPANISH: dict[str, tuple[str, ...]] = {
    "constraint": (
        "nunca", "siempre", "no uses", "no usar", "no quiero", "nada de", "debe",
        "deben", "tiene que", "tienen que", "hay que", "solo", "sólo", "solamente", "prefiero",
        "mejor", "evita", "evitar", "asegúrate", "como máximo", "como mínimo", "al menos",
        "mantén", "mantener", "fija", "usamos", "a partir de ahora", "ya no", "no toques",
        "prohibido", "obligatorio", "límite",
    ),
    "decision": (
        "vamos con", "usemos", "decidimos", "nos quedamos con", "elegimos", "empecemos con",
        "mejor usar",
    ),
    "next_step": (
        "siguiente paso", "próximo paso", "lo siguiente", "después", "luego", "a continuación",
        "más tarde", "cuando termines",
    ),
    "change": (
        "cambia a", "cambiar a", "cámbialo a", "pasa a", "pasar a", "a partir de ahora",
        "de ahora en adelante", "cambiemos a", "cambiamos a", "pasamos a", "nos pasamos a",
    ),
    "revoke": (
        "ya no hace falta", "no hace falta", "ya no necesitamos", "ya no usamos",
        "ya no lo usamos", "olvídate de", "olvidate de", "olvídate del", "olvidate del",
    ),
    "accept": ("sí", "vale", "de acuerdo", "perfecto", "genial", "bien"),
    "filler": ("sigue", "continúa", "adelante", "dale"),
    "goal": ("el objetivo es", "la tarea es", "quiero que", "necesito que", "objetivo:"),
}  # fmt: skip

FRENCH: dict[str, tuple[str, ...]] = {
    "constraint": (
        "jamais", "toujours", "ne ... pas", "n'utilise pas", "pas de", "sans", "il faut",
        "doit", "doivent", "uniquement", "seulement", "je préfère", "de préférence", "évite",
        "éviter", "assure-toi", "au maximum", "au minimum", "au moins", "garde", "garder",
        "on utilise", "désormais", "à partir de maintenant", "plus de", "ne touche pas",
        "interdit", "obligatoire", "limite",
    ),
    "decision": (
        "on part sur", "on prend", "utilisons", "on a décidé", "on garde", "on choisit",
        "allons avec",
    ),
    "next_step": (
        "prochaine étape", "étape suivante", "ensuite", "après ça", "plus tard", "puis",
    ),
    "change": (
        "passe à", "passer à", "on passe à", "change pour", "remplace par", "désormais",
        "à partir de maintenant", "dorénavant", "on bascule sur", "bascule sur",
    ),
    "revoke": (
        "plus besoin", "n'en a plus besoin", "on n'a plus besoin", "laisse tomber",
        "on laisse tomber", "on abandonne", "on n'utilise plus",
    ),
    "accept": ("oui", "d'accord", "parfait", "ça marche", "très bien", "ok"),
    "filler": ("continue", "vas-y", "poursuis"),
    "goal": ("le but est", "l'objectif est", "je veux que", "il s'agit de", "objectif :"),
}  # fmt: skip

GERMAN: dict[str, tuple[str, ...]] = {
    "constraint": (
        "nie", "niemals", "immer", "auf keinen fall", "ohne", "muss", "müssen", "soll",
        "sollen", "nur", "ich bevorzuge", "lieber", "vermeide", "achte darauf", "höchstens",
        "mindestens", "behalte", "wir nutzen", "wir verwenden", "ab jetzt", "nicht mehr",
        "verboten", "pflicht", "limit",
    ),
    "decision": (
        "wir nehmen", "nehmen wir", "wir haben entschieden", "entschieden", "wir bleiben bei",
    ),
    "next_step": (
        "nächster schritt", "als nächstes", "danach", "anschließend", "später",
    ),
    "change": (
        "wechsle zu", "wechseln zu", "wechsle auf", "wechseln auf", "umstellen auf",
        "umsteigen auf", "ab jetzt", "ab sofort", "mach ... draus", "mach ... daraus",
    ),
    "revoke": (
        "brauchen wir nicht mehr", "brauchen ... nicht mehr", "nicht mehr nötig",
        "fliegt ... raus", "kann ... weg", "lass ... weg", "lassen ... weg",
        "vergiss den", "vergiss die", "vergiss das",
    ),
    "accept": ("ja", "passt", "einverstanden", "gut", "perfekt", "alles klar"),
    "filler": ("weiter", "mach weiter", "fortfahren"),
    "goal": ("das ziel ist", "die aufgabe ist", "ich möchte, dass", "ich hätte gern", "ziel:"),
}  # fmt: skip

__all__ = ["FRENCH", "GERMAN", "SPANISH"]
