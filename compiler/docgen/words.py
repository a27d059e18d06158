"""The words of the generated pages themselves (headings, labels), in each language.

In:  a language code and a key.
Out: the page's word for it. The spec's own texts are translated by its catalogues
     (``translations``); these are the tool's few words around them.
"""
from __future__ import annotations

WORDS: dict[str, dict[str, str]] = {
    "en": {
        "overview": "Overview", "at_a_glance": "At a glance", "players": "players",
        "components": "Components", "catalogue": "catalogue", "kinds": "kinds",
        "each_player": "Each player has", "shared": "On the table", "grid": "Grid",
        "grid_of": "{rows} rows by {cols} columns of {cells}",
        "how_a_game_goes": "How a game goes", "flow_of": "The flow of play: {mode}",
        "playing": "Playing", "scoring": "Scoring", "end": "End of the game",
        "guarantees": "Guarantees", "readings": "Readings of the rulebook", "variants": "Variants",
        "reference": "Every definition", "rule_ids": "Rule IDs", "code": "Rule IDs and the rule's code",
        "uses": "Uses", "used_by": "Used by", "reading": "reading", "options": "options",
        "chosen": "chosen", "rulebook": "rulebook", "steps": "Steps", "sees": "The cells {name} reads from {cell}",
        "status": "Status", "proved": "Proved: the solver went through every case and none breaks it.",
        "broken": "Broken: the solver found a case that breaks it", "sampled": "Sampled: no case broke it in the games played (evidence, not proof)",
        "unknown": "Not settled: the solver ran out of time", "not_verified": "Not verified in this build.",
        "variants_page": "The variants of this game and the house rules are on their own pages.",
        "reports": "When the game ends", "catalogue_of": "Catalogue: {name}", "source": "source",
        "filter": "Filter the rows", "rows": "{n} rows", "reference_intro": "Every definition of the spec, in the order of its files: what it says, the rulebook rules it implements, what it uses and what uses it, and its code.",
        "catalogue_intro": "Every row of the spec's tables, as the spec holds them. A column `source` says where each value comes from: `rulebook-example` (a worked example of a rulebook), `rulebook-text` (the rulebook's text) or `reconstructed` (chosen to agree with every example, as the printed values are not public).",
        "setup": "Setting up", "mode": "Game", "seats": "Seats",
    },
    "fr": {
        "overview": "Aperçu", "at_a_glance": "En bref", "players": "joueurs",
        "components": "Matériel", "catalogue": "catalogue", "kinds": "sortes",
        "each_player": "Chaque joueur a", "shared": "Sur la table", "grid": "Grille",
        "grid_of": "{rows} lignes sur {cols} colonnes de {cells}",
        "how_a_game_goes": "Déroulement d'une partie", "flow_of": "Le déroulement : {mode}",
        "playing": "Jouer", "scoring": "Décompte des points", "end": "Fin de la partie",
        "guarantees": "Garanties", "readings": "Lectures du livret de règles", "variants": "Variantes",
        "reference": "Toutes les définitions", "rule_ids": "Identifiants de règles", "code": "Identifiants et code de la règle",
        "uses": "Utilise", "used_by": "Utilisé par", "reading": "lecture", "options": "options",
        "chosen": "choisie", "rulebook": "livret", "steps": "Étapes", "sees": "Les emplacements que {name} lit depuis {cell}",
        "status": "Statut", "proved": "Prouvé : le solveur a parcouru tous les cas et aucun ne l'enfreint.",
        "broken": "Enfreint : le solveur a trouvé un cas qui l'enfreint", "sampled": "Échantillonné : aucun cas ne l'a enfreint dans les parties jouées (un indice, pas une preuve)",
        "unknown": "Non établi : le temps du solveur est écoulé", "not_verified": "Non vérifié dans cette version.",
        "variants_page": "Les variantes de ce jeu et les règles maison ont leurs propres pages.",
        "reports": "Quand la partie se termine", "catalogue_of": "Catalogue : {name}", "source": "source",
        "filter": "Filtrer les lignes", "rows": "{n} lignes", "reference_intro": "Toutes les définitions de la spécification, dans l'ordre de ses fichiers : ce qu'elle dit, les règles du livret qu'elle met en œuvre, ce qu'elle utilise et ce qui l'utilise, et son code.",
        "catalogue_intro": "Toutes les lignes des tables de la spécification. Une colonne `source` dit d'où vient chaque valeur : `rulebook-example` (un exemple du livret), `rulebook-text` (le texte du livret) ou `reconstructed` (choisie pour s'accorder avec tous les exemples, les valeurs imprimées n'étant pas publiques).",
        "setup": "Mise en place", "mode": "Partie", "seats": "Places",
    },
    "es": {
        "overview": "Resumen", "at_a_glance": "De un vistazo", "players": "jugadores",
        "components": "Componentes", "catalogue": "catálogo", "kinds": "tipos",
        "each_player": "Cada jugador tiene", "shared": "En la mesa", "grid": "Cuadrícula",
        "grid_of": "{rows} filas por {cols} columnas de {cells}",
        "how_a_game_goes": "Cómo transcurre una partida", "flow_of": "El desarrollo: {mode}",
        "playing": "Jugar", "scoring": "Puntuación", "end": "Fin de la partida",
        "guarantees": "Garantías", "readings": "Interpretaciones del reglamento", "variants": "Variantes",
        "reference": "Todas las definiciones", "rule_ids": "Identificadores de reglas", "code": "Identificadores y código de la regla",
        "uses": "Usa", "used_by": "Usado por", "reading": "interpretación", "options": "opciones",
        "chosen": "elegida", "rulebook": "reglamento", "steps": "Pasos", "sees": "Las casillas que {name} lee desde {cell}",
        "status": "Estado", "proved": "Demostrado: el solucionador recorrió todos los casos y ninguno lo incumple.",
        "broken": "Incumplido: el solucionador encontró un caso que lo incumple", "sampled": "Muestreado: ningún caso lo incumplió en las partidas jugadas (un indicio, no una prueba)",
        "unknown": "Sin resolver: se agotó el tiempo del solucionador", "not_verified": "No verificado en esta versión.",
        "variants_page": "Las variantes de este juego y las reglas caseras tienen sus propias páginas.",
        "reports": "Cuando termina la partida", "catalogue_of": "Catálogo: {name}", "source": "fuente",
        "filter": "Filtrar las filas", "rows": "{n} filas", "reference_intro": "Todas las definiciones de la especificación, en el orden de sus archivos: lo que dice, las reglas del reglamento que implementa, lo que usa y lo que la usa, y su código.",
        "catalogue_intro": "Todas las filas de las tablas de la especificación. Una columna `source` indica de dónde viene cada valor: `rulebook-example` (un ejemplo del reglamento), `rulebook-text` (el texto del reglamento) o `reconstructed` (elegido para coincidir con todos los ejemplos, ya que los valores impresos no son públicos).",
        "setup": "Preparación", "mode": "Partida", "seats": "Puestos",
    },
    "zh": {
        "overview": "概览", "at_a_glance": "速览", "players": "名玩家",
        "components": "游戏配件", "catalogue": "目录", "kinds": "种",
        "each_player": "每位玩家拥有", "shared": "桌面上", "grid": "网格",
        "grid_of": "{rows} 行 × {cols} 列的{cells}",
        "how_a_game_goes": "游戏流程", "flow_of": "游戏流程：{mode}",
        "playing": "进行游戏", "scoring": "计分", "end": "游戏结束",
        "guarantees": "保证", "readings": "规则书的解读", "variants": "变体",
        "reference": "全部定义", "rule_ids": "规则编号", "code": "规则编号与规则代码",
        "uses": "使用", "used_by": "被使用于", "reading": "解读", "options": "选项",
        "chosen": "采用", "rulebook": "规则书", "steps": "步骤", "sees": "{name} 从 {cell} 读取的格子",
        "status": "状态", "proved": "已证明：求解器检查了所有情况，没有一种违反它。",
        "broken": "被违反：求解器找到了违反它的情况", "sampled": "已抽样：在已进行的对局中没有违反（是证据，不是证明）",
        "unknown": "未确定：求解器时间用尽", "not_verified": "本次生成未验证。",
        "variants_page": "本游戏的变体和房规各有单独的页面。",
        "reports": "游戏结束时", "catalogue_of": "目录：{name}", "source": "来源",
        "filter": "筛选行", "rows": "{n} 行", "reference_intro": "规范中的全部定义，按文件顺序排列：它的内容、它实现的规则书规则、它使用什么和被什么使用，以及它的代码。",
        "catalogue_intro": "规范中各表的全部行。`source` 列说明每个数值的来源：`rulebook-example`（规则书中的示例）、`rulebook-text`（规则书正文）或 `reconstructed`（印刷数值未公开，按与所有示例一致的原则选定）。",
        "setup": "游戏准备", "mode": "对局", "seats": "座位",
    },
}


def word(lang: str, key: str, **values) -> str:
    text = WORDS.get(lang, WORDS["en"]).get(key) or WORDS["en"][key]
    return text.format(**values) if values else text
